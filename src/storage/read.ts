import type { Storage } from './storage.ts';

/** The whole of a small stored file in memory (null when missing); stream large ones from `open`. */
export async function readAll(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.open(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
