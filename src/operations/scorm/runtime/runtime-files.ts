// GET /api/scorm/runtime/{file}: the SCORM player's browser scripts, from a fixed list: scorm-again's
// builds (MIT; docs/online-tests.md gives their sizes) and the player's own script and style. Each is
// read once and kept in memory (under 1 MB in all). A request naming the file's current version
// (`?v=`, the first 16 hex digits of its SHA-256, as the player page writes it) may be kept for a
// year; any other for five minutes, so an upgrade reaches browsers soon after.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { notFound } from '../../../lib/errors.ts';
import type { FileResult } from '../../../lib/files.ts';
import { PLAYER_SCRIPT } from '../player/player-script.ts';
import { PLAYER_STYLE } from '../player/player-style.ts';

const JS = 'text/javascript; charset=utf-8';

/** The files served, by name: a file of scorm-again's dist/ folder, or text of our own. */
const FILES: Record<string, { dist: string } | { text: string; type: string }> = {
  'scorm2004.min.js': { dist: 'scorm2004.min.js' },
  'scorm12.min.js': { dist: 'scorm12.min.js' },
  'cross-frame-lms.min.js': { dist: 'cross-frame-lms.min.js' },
  'cross-frame-api.min.js': { dist: 'cross-frame-api.min.js' },
  // The name the asset route's injected <script> uses inside package pages.
  'cross-frame-api.js': { dist: 'cross-frame-api.min.js' },
  'player.js': { text: PLAYER_SCRIPT, type: JS },
  'player.css': { text: PLAYER_STYLE, type: 'text/css; charset=utf-8' },
};

export const RUNTIME_FILES = Object.keys(FILES);

interface Loaded {
  bytes: Buffer;
  type: string;
  version: string;
}

const loaded = new Map<string, Promise<Loaded>>();

function distFolder(): string {
  // scorm-again's CommonJS entry is dist/scorm-again.js; its package.json is not exported.
  return dirname(createRequire(import.meta.url).resolve('scorm-again'));
}

async function load(name: string): Promise<Loaded> {
  const file = FILES[name]!;
  const bytes = 'dist' in file ? await readFile(join(distFolder(), file.dist)) : Buffer.from(file.text, 'utf8');
  const type = 'dist' in file ? JS : file.type;
  return { bytes, type, version: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

function loadOnce(name: string): Promise<Loaded> {
  let found = loaded.get(name);
  if (!found) {
    found = load(name);
    loaded.set(name, found);
    found.catch(() => loaded.delete(name));
  }
  return found;
}

/** `/api/scorm/runtime/<name>?v=<version>` for each file: the addresses the player page writes. */
export async function runtimeUrls(names: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of names) out[name] = `/api/scorm/runtime/${name}?v=${(await loadOnce(name)).version}`;
  return out;
}

/** One file of the list; 404 for any other name. */
export async function runtimeFile(name: string, version: string | undefined): Promise<FileResult> {
  if (!Object.hasOwn(FILES, name)) throw notFound('Unknown SCORM runtime file');
  const file = await loadOnce(name);
  return {
    filename: name,
    contentType: file.type,
    data: file.bytes,
    asAttachment: false,
    headers: { 'Cache-Control': version === file.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300' },
  };
}
