import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

const MAX_USERNAME = 255;

/** `base` as a PostgreSQL regular expression matching only itself (ARE: `\` before a non-alphanumeric is literal). */
function regexLiteral(base: string): string {
  return base.replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`);
}

/** The local part of an address: what a username is made from when none is given. */
export function emailLocalPart(email: string): string {
  return email.slice(0, email.lastIndexOf('@'));
}

/**
 * A username no one holds yet: `base` itself (lower-cased, cut to fit), else `base2`, `base3`, …
 * — the lowest free number. One query reads every username of that form. Two creations racing
 * for the same name still meet the unique index, which answers 400 "already been taken".
 */
export async function uniqueUsername(em: Em, base: string): Promise<string> {
  const stem =
    base
      .trim()
      .toLowerCase()
      .slice(0, MAX_USERNAME - 6) || 'user';
  const rows = await db(em)
    .selectFrom('users')
    .select('username')
    .where('username', '~', `^${regexLiteral(stem)}[0-9]*$`)
    .execute();
  const suffixes = new Set(rows.map((r) => r.username.slice(stem.length)));
  if (!suffixes.has('')) return stem;
  for (let n = 2; ; n++) if (!suffixes.has(String(n))) return `${stem}${n}`;
}
