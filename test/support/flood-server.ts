// The service in a process of its own (test/rest/upload-flood.server.ts), asked over IPC for its
// memory, for tests that flood it with large bodies and measure what that costs.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { FromServer, Memory, ToServer } from '../rest/upload-flood.server.ts';

export interface FloodServer {
  port: number;
  memory(ask: ToServer): Promise<Memory>;
  stop(): Promise<void>;
}

function message(child: ChildProcess, ms = 30_000): Promise<FromServer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not answer')), ms);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as FromServer);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code})`));
    });
  });
}

/** Starts the server with these environment variables (DATABASE_URL, DATA_DIR, FLOOD_UPLOAD_CAP, ...). */
export async function startFloodServer(env: Record<string, string>): Promise<FloodServer> {
  const server = spawn(
    process.execPath,
    ['--expose-gc', '--import', import.meta.resolve('tsx'), join(import.meta.dirname, '..', 'rest', 'upload-flood.server.ts')],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, LOG_LEVEL: 'error', ...env },
    },
  );
  const { port } = (await message(server)) as { port: number };
  return {
    port,
    async memory(ask) {
      const answer = message(server);
      server.send(ask);
      return (await answer) as Memory;
    },
    async stop() {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.disconnect();
      const timer = setTimeout(() => server.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
