// The folders an assessment's containers see: sandbox/ (the submission's files under their
// requirement names, and the assessment resources) and output/ (what the scripts write). They are
// bind-mounted, so the engine must see the same path (OVERSEER_WORK_DIR).
import { createWriteStream } from 'node:fs';
import { chmod, chown, type FileHandle, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { copyEntryTo, readZip } from '../../lib/zip.ts';
import type { Storage } from '../../storage/index.ts';

/** The resources may not unpack to more than this in all (a zip bomb stops here). */
const MAX_RESOURCES_BYTES = 200 * 1024 * 1024;

export interface SandboxFile {
  storagePath: string;
  /** The name the scripts expect it under (the upload requirement's name). */
  name: string;
}

export interface Sandbox {
  root: string;
  sandboxDir: string;
  outputDir: string;
  remove(): Promise<void>;
}

export class MissingResourcesError extends Error {}

/** A file name that stays inside its folder: the last part of `name`, without odd characters. */
export function sandboxName(name: string, fallback: string): string {
  const base = name.replace(/\\/g, '/').split('/').pop() ?? '';
  const clean = base.replace(/[^\w .+-]/g, '_').trim();
  return clean === '' || /^\.+$/.test(clean) ? fallback : clean;
}

/**
 * Who the steps run as: the configured unprivileged user when the worker is root (it hands the
 * sandbox over to them), else the worker's own uid:gid, the only owner it can give files to.
 */
export function containerUser(configured: string): string {
  if (process.getuid === undefined || process.getuid() === 0) return configured;
  return `${process.getuid()}:${process.getgid!()}`;
}

/** The uid and gid the containers run as, from `uid:gid` (a name yields null: nothing to chown). */
function numericUser(user: string): { uid: number; gid: number } | null {
  const m = /^(\d+)(?::(\d+))?$/.exec(user);
  return m ? { uid: Number(m[1]), gid: Number(m[2] ?? m[1]) } : null;
}

/** The most of one file a step's script writes to output/ that is kept (its container's logs are cut at 64 KiB). */
export const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * What a script wrote to output/`name` on this worker's disk: its first MAX_OUTPUT_BYTES, with a
 * line saying where it was cut (a script may write gigabytes; the worker's memory must not follow).
 * '' when it wrote nothing.
 */
export async function readOutput(path: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(Math.min(size, MAX_OUTPUT_BYTES)), 0, Math.min(size, MAX_OUTPUT_BYTES), 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return size > MAX_OUTPUT_BYTES ? `${text}\n[output cut at ${MAX_OUTPUT_BYTES} bytes]\n` : text;
  } finally {
    await handle.close();
  }
}

async function fetchTo(storage: Storage, key: string, destination: string): Promise<boolean> {
  const file = await storage.open(key);
  if (!file) return false;
  await pipeline(file.stream, createWriteStream(destination, { flags: 'wx', mode: 0o644 }));
  return true;
}

/**
 * Lays out a fresh sandbox under `workDir`: the submission's files, then the resources zip's files
 * flattened into it (entries keep only their last name part, so none can climb out; directories and
 * unsafe names are skipped). The tree is owned by `user`, who must be able to chmod the scripts.
 */
export async function prepareSandbox(
  storage: Storage,
  workDir: string,
  label: string,
  files: SandboxFile[],
  resourcesKey: string,
  user: string,
): Promise<Sandbox> {
  const root = await mkdtemp(join(workDir, `${label}-`));
  const sandboxDir = join(root, 'sandbox');
  const outputDir = join(root, 'output');
  const removeAll = () => rm(root, { recursive: true, force: true });
  try {
    await mkdir(sandboxDir);
    await mkdir(outputDir);
    for (const [idx, f] of files.entries()) {
      await fetchTo(storage, f.storagePath, join(sandboxDir, sandboxName(f.name, `file${idx}`)));
    }
    const zipPath = join(root, 'resources.zip');
    if (!(await fetchTo(storage, resourcesKey, zipPath))) throw new MissingResourcesError('The assessment resources are missing');
    let total = 0;
    const seen = new Set<string>();
    for await (const entry of readZip(zipPath)) {
      const name = entry.isDirectory || entry.unsafe ? '' : sandboxName(entry.baseName, '');
      if (name === '' || seen.has(name) || entry.name.startsWith('__MACOSX/')) continue;
      seen.add(name);
      const destination = join(sandboxDir, name);
      // A resource replaces a submitted file of the same name, as unzipping over it would.
      await rm(destination, { force: true });
      total += await copyEntryTo(entry, destination, MAX_RESOURCES_BYTES - total);
      await chmod(destination, 0o644);
    }
    await rm(zipPath);
    const owner = numericUser(user);
    const mine = process.getuid?.() === 0;
    if (owner && mine) {
      for (const dir of [root, sandboxDir, outputDir]) await chown(dir, owner.uid, owner.gid);
      for (const name of seen) await chown(join(sandboxDir, name), owner.uid, owner.gid);
      for (const [idx, f] of files.entries()) await chown(join(sandboxDir, sandboxName(f.name, `file${idx}`)), owner.uid, owner.gid).catch(() => undefined);
    }
    await chmod(root, 0o755);
    return { root, sandboxDir, outputDir, remove: removeAll };
  } catch (error) {
    await removeAll();
    throw error;
  }
}
