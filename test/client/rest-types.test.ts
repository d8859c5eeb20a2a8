// src/client/rest-types.ts is generated from the OpenAPI document and committed; it must match
// the document the procedures describe now (npm run generate:client-types writes it again).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { REST_TYPES_FILE, restTypesSource } from '../../scripts/generate-client-types.ts';

const test = suite("client package: the REST types match the service's OpenAPI document");

test('src/client/rest-types.ts is what the generator writes for the document now', async () => {
  const committed = readFileSync(REST_TYPES_FILE, 'utf8');
  const fresh = await restTypesSource();
  if (committed !== fresh) {
    const a = committed.split('\n');
    const b = fresh.split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    assert.unreachable(`src/client/rest-types.ts is stale (first difference at line ${line + 1}): run npm run generate:client-types`);
  }
});

test.run();
