import type { Storage } from './storage.ts';

/** The whole of a small stored file in memory (null when missing); stream large ones from `open`. */
export async function readAll(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.open(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Opens a stored file when a zip being streamed reaches it. A file that vanished since it was
 * listed cuts the download off: a zip silently missing a student's work would be worse.
 */
export const zipEntryOpener = (storage: Storage, key: string) => async () => {
  const file = await storage.open(key);
  if (!file) throw new Error(`stored file ${key} disappeared while the zip was written`);
  return file.stream;
};
