import type { Test } from 'uvu';
import { resetDatabase, testEnv, type TestEnv } from './env.ts';
import { everyone, type People } from './fixtures.ts';

export interface World {
  env: TestEnv;
  people: People;
}

/** Before each test: empty tables, the clock put back, and one signed-in user of each role. */
export function freshEachTest(test: Test, receive: (world: World) => void): void {
  test.before.each(async () => {
    const env = await testEnv();
    await resetDatabase(env);
    receive({ env, people: await everyone(env) });
  });
}
