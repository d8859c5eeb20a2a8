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
