// How the text of an environment variable becomes a setting. Each parser sees a value that is not empty
// (loadConfig drops empty variables: `PORT=` counts as unset) and words a mistake to follow the
// variable's name, which loadConfig puts in front: `PORT must be a non-negative integer, got "eighty"`.
import { z } from 'zod';

const ON = ['1', 'true', 'yes', 'on'];
const OFF = ['0', 'false', 'no', 'off'];

/** On for `1`, `true`, `yes` or `on` in any case; anything else is off. */
export const flag = () => z.string().transform((text) => ON.includes(text.trim().toLowerCase()));

function number(accept: (n: number) => boolean, what: string) {
  return z.string().transform((text, ctx) => {
    const n = Number(text);
    if (accept(n)) return n;
    ctx.addIssue({ code: 'custom', message: `must be ${what}, got "${text}"` });
    return z.NEVER;
  });
}

/** A whole number from 0 up, read as `Number` reads it (so `1e3` is 1000). */
export const int = () => number((n) => Number.isInteger(n) && n >= 0, 'a non-negative integer');

/** A finite number above 0; fractions allowed. */
export const positive = () => number((n) => n > 0 && Number.isFinite(n), 'a positive number');

/** For a setting with a floor that was never an error: a smaller value is raised to it. */
export const raiseTo = (floor: number) => (n: number) => Math.max(floor, n);

/** For a setting where a smaller value would break something: refused. */
export const atLeast = (least: number) => (n: number) => n >= least;

/** Exactly one of `values` (as written, case included). */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: (issue) => `must be one of ${values.join(', ')}, got "${String(issue.input)}"` });
}

/** A comma-separated list; blanks around the items and empty items are dropped. */
const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `*` (any origin) or a comma-separated list of web origins. */
export const origins = () => z.string().transform((text): '*' | string[] => (['*', ''].includes(text.trim()) ? '*' : list(text)));

/** Fastify's trustProxy: `true`/`false` (or 1/0, yes/no, on/off), or a comma-separated list of the proxies' addresses or CIDR ranges. */
export const trustProxy = () =>
  z.string().transform((text): boolean | string[] => {
    const word = text.trim().toLowerCase();
    if (word === '' || OFF.includes(word)) return false;
    if (ON.includes(word)) return true;
    return list(text);
  });

/** An absolute URL, without its trailing slashes; only blanks or slashes count as unset. */
export const absoluteUrl = () =>
  z.string().transform((text, ctx) => {
    const url = text.trim().replace(/\/+$/, '');
    if (url === '') return undefined;
    if (URL.canParse(url)) return url;
    ctx.addIssue({ code: 'custom', message: `must be an absolute URL, got "${text}"` });
    return z.NEVER;
  });

/** Where stored files live: a directory (`file:///path`) or an S3-compatible bucket with an optional key prefix. */
export type StorageUrl = { kind: 'file'; root: string } | { kind: 's3'; bucket: string; prefix: string };

// S3's own rule for bucket names (3-63 lowercase letters, digits, dots and hyphens).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** `file:///absolute/path` or `s3://bucket/optional/prefix`. */
export const storageUrl = () =>
  z.string().transform((text, ctx): StorageUrl => {
    const url = URL.canParse(text.trim()) ? new URL(text.trim()) : undefined;
    if (url?.protocol === 'file:' && !url.host && url.pathname.length > 1) return { kind: 'file', root: decodeURIComponent(url.pathname) };
    // The URL parser would quietly resolve `..` away; a prefix that names one is a mistake to report.
    const dotSegments = text.split('/').some((segment) => segment === '.' || segment === '..');
    if (url?.protocol === 's3:' && BUCKET.test(url.hostname) && !url.search && !url.hash && !dotSegments) {
      const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
      if (prefix === '' || prefix.split('/').every((segment) => PREFIX_SEGMENT.test(segment) && !segment.includes('..'))) {
        return { kind: 's3', bucket: url.hostname, prefix };
      }
    }
    ctx.addIssue({ code: 'custom', message: `must be file:///absolute/path or s3://bucket/optional/prefix, got "${text}"` });
    return z.NEVER;
  });
