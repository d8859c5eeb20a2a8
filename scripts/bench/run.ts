// Runs every scripts/bench/*.bench.ts in name order, each in its own child process so one
// benchmark's database, pools and JIT state cannot colour the next. Each benchmark prints its
// own `<name> ratio <median> (p25 <value>, p75 <value>, n=<rounds>)` line(s); this runner only
// fails when a benchmark crashes, never on a number. `npm run bench -- <part-of-name>` runs
// only the matching files; any further arguments go to each of them
// (`npm run bench -- deadline --students 500`).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NODE_FLAGS } from '../lib/node-flags.ts';

const dir = resolve(import.meta.dirname);
const [filter, ...args] = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts') && (!filter || name.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error(filter ? `no benchmark matches "${filter}"` : 'no benchmark found');
  process.exit(1);
}

// The same Node that runs this script (the project pins 22), with the service's flags
// (scripts/lib/node-flags.ts: the benchmarks measure the service as it runs) and tsx's loader.
let crashed = 0;
for (const file of files) {
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', join(dir, file), ...args], { stdio: 'inherit', env: process.env });
    child.on('error', (error) => {
      console.error(`${file}: ${error.message}`);
      done(1);
    });
    child.on('exit', (status, signal) => done(status ?? (signal ? 1 : 0)));
  });
  if (code !== 0) {
    console.error(`${file} exited with ${code}`);
    crashed++;
  }
}
process.exit(crashed ? 1 : 0);
