// The messages between the runner (test/run.ts) and its test processes (child.ts).

/** Runner → process: run this file, or (once no file is left) close and exit. */
export type FromRunner = { file: string } | { close: true };

/** Process → runner: a file's counts; its output is already in the process's log. */
export interface FileDone {
  done: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** Process → runner, before it exits: failures while closing (and any stray ones since the last file). */
export interface Closed {
  closed: true;
  failed: number;
}

export type FromChild = FileDone | Closed;
