// CPU-heavy work (PDF rendering, portfolio compiles, code similarity) runs in worker threads, never
// on the event loop that answers HTTP: one piscina pool per process, made on first use and closed
// in the ordered stop (src/service.ts). Each thread task is a small file of its own under
// src/threads/ whose default export piscina calls; threads load the same kind of module as the
// process (the build's JavaScript, or TypeScript through the inherited `--import tsx` in development). A thread has a heap cap
// (CPU_THREAD_MEMORY_MB): work that outgrows it ends that thread only, and the caller gets an
// error `isOutOfMemory` recognises. An aborted signal ends the thread running the task at once.
import { Piscina } from 'piscina';

export interface ThreadSettings {
  /** Threads at most (CPU_THREADS). */
  threads: number;
  /** Heap (old generation) cap of each thread in MB (CPU_THREAD_MEMORY_MB). */
  memoryMb: number;
}

/** An idle thread is kept this long for the next task (loading pdf-lib and the fonts takes a while), then ends. */
const IDLE_MS = 60_000;

let pool: Piscina | undefined;

function shared(settings: ThreadSettings): Piscina {
  pool ??= new Piscina({
    minThreads: 0,
    maxThreads: settings.threads,
    idleTimeout: IDLE_MS,
    resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb },
    // Lower priority than the event loop where the system allows it (a no-op elsewhere).
    niceIncrement: 5,
  });
  return pool;
}

export interface RunOptions {
  /** Aborting ends the thread running the task (or takes it out of the queue). */
  signal?: AbortSignal;
  /** Buffers moved to the thread instead of copied (see `transferable` in moving.ts). */
  transfer?: ArrayBuffer[];
}

/**
 * A thread task: `run(settings, input)` calls the default export of `file` in a pool thread. The
 * caller names the function's type only, so nothing of the task's code loads on the event loop.
 */
export function threadTask<F extends (input: never) => unknown>(file: URL) {
  return (settings: ThreadSettings, input: Parameters<F>[0], options: RunOptions = {}): Promise<Awaited<ReturnType<F>>> =>
    shared(settings).run(input, { filename: file.href, signal: options.signal, transferList: options.transfer });
}

/** True for the error of a task whose thread ran out of its heap (CPU_THREAD_MEMORY_MB). */
export const isOutOfMemory = (error: unknown): boolean => (error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/** True when the task was stopped through its signal. */
export const isAborted = (error: unknown): boolean => (error as { name?: string } | null)?.name === 'AbortError';

/** Ends every thread (tasks still queued are refused); part of the ordered stop. */
export async function closeThreads(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close({ force: true });
}
