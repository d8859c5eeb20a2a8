// The service runs with the same Node flags wherever it is started (scripts/lib/node-flags.ts):
// the npm scripts an operator runs and the image's CMD must name them, or production would run
// without what the benchmarks measured and the tests ran with.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NODE_FLAGS } from '../../scripts/lib/node-flags.ts';

const test = suite('the Node flags of the service');
const ROOT = resolve(import.meta.dirname, '..', '..');

test('npm start, start:prod and dev run node with the flags', () => {
  const { scripts } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  for (const name of ['start', 'start:prod', 'dev']) {
    assert.ok(scripts[name].startsWith(`exec node ${NODE_FLAGS.join(' ')} `), `${name}: ${scripts[name]}`);
  }
});

test("the image's CMD runs node with the flags", () => {
  const cmd = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith('CMD '));
  assert.equal(JSON.parse(cmd!.slice(4)), ['node', ...NODE_FLAGS, 'dist/src/main.js']);
});

test('the test processes and their worker threads run with the flags', async () => {
  for (const flag of NODE_FLAGS) assert.ok(process.execArgv.includes(flag), flag);
  // A worker thread inherits them; one given V8 flags explicitly would refuse to start.
  const { Worker } = await import('node:worker_threads');
  const seen = await new Promise<string[]>((done, fail) => {
    const w = new Worker('require("node:worker_threads").parentPort.postMessage(process.execArgv)', { eval: true });
    w.once('message', (argv: string[]) => void w.terminate().then(() => done(argv)));
    w.once('error', fail);
  });
  for (const flag of NODE_FLAGS) assert.ok(seen.includes(flag), `worker: ${flag}`);
});

test.run();
