/**
 * Runs tasks that share a key one after another and tasks of different keys side by side, within
 * this process. Nothing is kept for a key once its last task has settled, so the map holds only
 * the keys that have a task running or waiting.
 */
export function oneAtATimePerKey() {
  const last = new Map<string, Promise<unknown>>();
  return async function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = last.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const settled = result.catch(() => {});
    last.set(key, settled);
    try {
      return await result;
    } finally {
      if (last.get(key) === settled) last.delete(key);
    }
  };
}
