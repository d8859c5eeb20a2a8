import { sql } from 'kysely';
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
function stemOf(base: string): string {
  return (
    base
      .trim()
      .toLowerCase()
      .slice(0, MAX_USERNAME - 6) || 'user'
  );
}

export async function uniqueUsername(em: Em, base: string): Promise<string> {
  const stem = stemOf(base);
  const rows = await db(em)
    .selectFrom('users')
    .select('username')
    .where('username', '~', `^${regexLiteral(stem)}[0-9]*$`)
    .execute();
  const suffixes = new Set(rows.map((r) => r.username.slice(stem.length)));
  if (!suffixes.has('')) return stem;
  for (let n = 2; ; n++) if (!suffixes.has(String(n))) return `${stem}${n}`;
}

/** `value` as a LIKE pattern matching only itself (`\\` is LIKE's default escape). */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * uniqueUsername for many new users at once (a roster sync): one query reads every username that
 * starts with one of the stems, and the names handed out here are taken for the later ones, so two
 * bases with the same stem get `base` and `base2`. Answers in the order of `bases`.
 */
export async function uniqueUsernames(em: Em, bases: readonly string[]): Promise<string[]> {
  if (bases.length === 0) return [];
  const stems = bases.map(stemOf);
  const distinct = [...new Set(stems)];
  const rows = await db(em)
    .selectFrom('users')
    .select('username')
    .where('username', 'like', sql<string>`any(${sql.val(distinct.map((s) => `${likeLiteral(s)}%`))}::text[])`)
    .execute();
  const taken = new Set(rows.map((r) => r.username));
  return stems.map((stem) => {
    let name = stem;
    for (let n = 2; taken.has(name); n++) name = `${stem}${n}`;
    taken.add(name);
    return name;
  });
}
