// A ranged download (a player seeking in a recording) asks the store for that range only: on the
// local directory a read of those bytes, on S3 one GET with `Range`, never the whole object read
// and skipped through. Counted at the store, on both stores, through the real REST route.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { ByteRange, Storage } from '../../src/storage/index.ts';
import { createServices, type Services } from '../../src/trpc/context.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { type S3Server, startS3Server } from '../support/s3-server.ts';
import { sampleWav } from '../support/sample-audio.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('storage: ranged downloads read only the range from the store');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** What the store was asked for and how many bytes its streams gave. */
interface Reads {
  ranges: (ByteRange | undefined)[];
  bytes: number;
}

/** The store, counting every open and every byte it streams out. */
function counting(storage: Storage, reads: Reads): Storage {
  return {
    ...storage,
    location: storage.location,
    async open(key, range) {
      reads.ranges.push(range);
      const file = await storage.open(key, range);
      file?.stream.on('data', (chunk: Buffer) => (reads.bytes += chunk.length));
      return file;
    },
  };
}

let s3: S3Server | string;
let s3App: { app: FastifyInstance; services: Services } | undefined;

test.before(async () => {
  try {
    s3 = await startS3Server('ranged-downloads');
  } catch (error) {
    s3 = `s3rver could not start: ${(error as Error).message}`;
  }
});
test.after(async () => {
  await s3App?.app.close();
  if (typeof s3 !== 'string') await s3.close();
});

/** An app like the test's own, with its files in the bucket. */
async function appOnS3(server: S3Server): Promise<{ app: FastifyInstance; services: Services }> {
  if (s3App) return s3App;
  const services = createServices(
    env.orm,
    { ...env.config, objectStorage: { bucket: server.bucket, prefix: 'ranged', forcePathStyle: true, timeoutMs: 30_000 } },
    env.clock,
  );
  const app = await buildApp(services);
  await app.ready();
  s3App = { app, services };
  return s3App;
}

/** A 4 MB recording (a real WAV, so it is taken as audio) whose bytes all differ by position. */
function recording(): Buffer {
  const wav = sampleWav(2_000_000);
  for (let i = 44; i < wav.length; i++) wav[i] = (i * 31 + (i >> 10)) & 0xff;
  return wav;
}

async function seekAtTheEnd(app: FastifyInstance, services: Services): Promise<void> {
  const w = await taskWorld(env, people);
  const wav = recording();
  const made = await api({ ...env, app }, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, {
    as: people.student.creds,
    multipart: { attachment: { filename: 'long.wav', contentType: 'audio/wav', data: wav } },
  });
  assert.is(made.status, 201, made.text);
  const reads: Reads = { ranges: [], bytes: 0 };
  const plain = services.storage;
  services.storage = counting(plain, reads);
  try {
    const tail = await app.inject({
      method: 'GET',
      url: `/api/projects/${w.project}/task_def_id/${w.td}/comments/${made.body.id}`,
      headers: { Username: people.tutor.creds.username, 'Auth-Token': people.tutor.creds.token, Range: 'bytes=-1024' },
    });
    assert.is(tail.statusCode, 206);
    assert.is(tail.headers['content-range'], `bytes ${wav.length - 1024}-${wav.length - 1}/${wav.length}`);
    assert.equal(tail.rawPayload, wav.subarray(wav.length - 1024));
    // The last 1 KB of 4 MB: the store was asked for exactly it, and gave no more.
    assert.equal(reads.ranges, [{ start: wav.length - 1024, end: wav.length - 1 }]);
    assert.is(reads.bytes, 1024, `bytes read from the store for a 1 KB range of ${wav.length}`);

    reads.ranges = [];
    reads.bytes = 0;
    const whole = await app.inject({
      method: 'GET',
      url: `/api/projects/${w.project}/task_def_id/${w.td}/comments/${made.body.id}`,
      headers: { Username: people.tutor.creds.username, 'Auth-Token': people.tutor.creds.token },
    });
    assert.is(whole.statusCode, 200);
    assert.equal(whole.rawPayload, wav);
    assert.equal(reads.ranges, [undefined], 'without Range, one read of the whole file');
  } finally {
    services.storage = plain;
  }
}

test('local directory: a 1 KB range of a 4 MB attachment reads 1 KB from the store', async () => {
  await seekAtTheEnd(env.app, env.services);
});

test('S3 (s3rver): a 1 KB range of a 4 MB attachment is one ranged GET of 1 KB', async () => {
  if (typeof s3 === 'string') {
    console.log(`  skipped: ${s3}`);
    return;
  }
  const { app, services } = await appOnS3(s3);
  await seekAtTheEnd(app, services);
});

test.run();
