// The test processes of a run. Each has a database of its own and takes one file at a time from a
// shared queue (longest first), so a process that finishes early takes the next file instead of
// waiting for a fixed share. Everything a process prints (its tests, and the servers they start,
// which inherit its output) goes to a log file of its own, written in order; when a file is done,
// the new part of the log is that file's block, printed whole, so files never interleave.
import { fork, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS } from '../../scripts/lib/node-flags.ts';
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FromChild, FromRunner } from './protocol.ts';

export interface FileResult {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  /** What the file printed (and, for a process that died, what went wrong). */
  output: string;
}

export interface ProcessPoolOptions {
  root: string;
  files: string[];
  processes: number;
  logDir: string;
  /** A database of its own for a new process; its URL. */
  database(name: string): Promise<string>;
  onFile(result: FileResult): void;
  /** Failures outside any file (a process that failed while closing, or could not start). */
  onStray(what: string, failed: number, output: string): void;
}

class TestProcess {
  private child: ChildProcess | undefined;
  private log = -1;
  private read = 0;
  file: string | undefined;
  private started = 0;

  constructor(
    readonly name: string,
    private readonly options: ProcessPoolOptions,
  ) {}

  async start(onMessage: (message: FromChild) => void, onExit: (how: string) => void): Promise<void> {
    const url = await this.options.database(this.name);
    this.log = openSync(join(this.options.logDir, `${this.name}.log`), 'a+');
    const child = fork(join(import.meta.dirname, 'child.ts'), [], {
      // The project's root, as for `npm test`: tests run scripts and the service by relative paths.
      cwd: join(this.options.root, '..'),
      // The service's Node flags, so the tests run it as it runs in production.
      execArgv: [...process.execArgv, ...NODE_FLAGS],
      // uvu's colours follow the terminal the run prints to, not the log file.
      env: { ...process.env, TEST_DATABASE_URL: url, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
      stdio: ['ignore', this.log, this.log, 'ipc'],
    });
    this.child = child;
    child.on('message', onMessage);
    // 'close', not 'exit': it comes after the last message on the IPC channel.
    child.on('close', (code, signal) => onExit(signal ?? `exit ${code}`));
  }

  send(message: FromRunner): void {
    if ('file' in message) {
      this.file = message.file;
      this.started = performance.now();
    }
    this.child?.send(message);
  }

  /** Seconds since the current file was handed over. */
  elapsed(): number {
    return (performance.now() - this.started) / 1000;
  }

  /** What the process printed since the last call. */
  newOutput(): string {
    const size = fstatSync(this.log).size;
    const buffer = Buffer.alloc(size - this.read);
    readSync(this.log, buffer, 0, buffer.length, this.read);
    this.read = size;
    return buffer.toString();
  }

  kill(): void {
    this.child?.kill('SIGTERM');
    const child = this.child;
    setTimeout(() => child?.kill('SIGKILL'), 10_000).unref();
  }

  closeLog(): void {
    if (this.log >= 0) closeSync(this.log);
    this.log = -1;
  }
}

export interface ProcessPool {
  /** Resolves once every file has run and every process has closed. */
  finished: Promise<void>;
  /** Files being run now (for a run that must stop), with how long they have been running. */
  running(): { file: string; seconds: number }[];
  /** Stops every process now (the run's deadline passed). */
  kill(): void;
}

export function runFiles(options: ProcessPoolOptions): ProcessPool {
  const queue = [...options.files];
  const live = new Set<TestProcess>();
  let made = 0;
  let stopping = false;
  let finish: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const name = (file: string) => relative(options.root, file);

  const next = (proc: TestProcess) => {
    const file = queue.shift();
    if (file) proc.send({ file });
    else {
      proc.file = undefined;
      proc.send({ close: true });
    }
  };

  async function launch(): Promise<void> {
    const proc = new TestProcess(`p${++made}`, options);
    live.add(proc);
    try {
      await proc.start(
        (message) => {
          if ('done' in message) {
            const { done, passed, failed, skipped } = message;
            options.onFile({ file: name(done), passed, failed, skipped, seconds: proc.elapsed(), output: proc.newOutput() });
            if (!stopping) next(proc);
          } else if (message.failed) options.onStray(`closing test process ${proc.name}`, message.failed, proc.newOutput());
        },
        (how) => {
          live.delete(proc);
          const output = proc.newOutput();
          proc.closeLog();
          if (proc.file) {
            // It died with a file in hand: that file fails, and a new process takes the rest.
            const died = stopping ? 'was stopped at the deadline' : `died (${how})`;
            options.onFile({
              file: name(proc.file),
              passed: 0,
              failed: 1,
              skipped: 0,
              seconds: proc.elapsed(),
              output: `${output}\nFAILED the test process ${died} while running this file\n`,
            });
            if (!stopping && queue.length) void launch();
          } else if (how !== 'exit 0' && !stopping) options.onStray(`test process ${proc.name} exited (${how})`, 1, output);
          else if (output.trim()) options.onStray(`test process ${proc.name}`, 0, output);
          if (live.size === 0 && (queue.length === 0 || stopping)) finish();
        },
      );
      next(proc);
    } catch (error) {
      live.delete(proc);
      proc.closeLog();
      options.onStray(`starting test process ${proc.name}`, 1, String(error instanceof Error ? error.stack : error));
      // Without a process nothing runs: the files left count as failures rather than hang the run.
      if (live.size === 0) {
        for (const file of queue.splice(0))
          options.onFile({ file: name(file), passed: 0, failed: 1, skipped: 0, seconds: 0, output: 'FAILED: no test process could start\n' });
        finish();
      }
    }
  }

  const count = Math.max(1, Math.min(options.processes, queue.length));
  if (queue.length === 0) finish!();
  else for (let i = 0; i < count; i++) void launch();

  return {
    finished,
    running: () => [...live].filter((p) => p.file).map((p) => ({ file: name(p.file!), seconds: p.elapsed() })),
    kill() {
      stopping = true;
      for (const proc of live) proc.kill();
    },
  };
}
