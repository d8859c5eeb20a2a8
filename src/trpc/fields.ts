import { z } from 'zod';
import { isDay, parseDay, parseTimestamp } from '../domain/dates.ts';

// Input fields that accept both JSON values and the strings of form and query bodies.
// (z.coerce.boolean() would turn the string "false" into true.)

/**
 * `z.preprocess` whose field is exactly as optional as `target`. Zod marks a preprocess as
 * accepting an absent value (so a transform may observe a missing key), and every reader of
 * that mark took our required fields for optional: zod's JSON Schema looks past one bare
 * preprocess but not past `preprocess(...).pipe(...)` (requiredString, idField), and
 * zod-openapi's parameter `required` looks past none. Our preprocessors never turn absence
 * into a value, so the target's optionality (`.optional()`, `.default()` added later still
 * count) is the truth for parsing and for the OpenAPI document alike.
 */
export function preprocess<T extends z.ZodType>(fn: (value: unknown) => unknown, target: T) {
  const schema = z.preprocess(fn, target);
  (schema.def.in._zod as { optin?: 'optional' | 'defaulted' }).optin = target._zod.optin;
  return schema;
}

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

export const formBool = () =>
  preprocess((v) => {
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
    }
    if (v === 1) return true;
    if (v === 0) return false;
    return v;
  }, z.boolean());

export const formInt = () => preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v), z.number().int().safe());

/** A path or body id: a positive integer. */
export const idField = () => formInt().pipe(z.number().int().positive());

/** A trimmed string; numbers are accepted as their text (forms cannot tell them apart). */
export const formString = () => preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim());

/** A non-blank trimmed string. */
export const requiredString = () => formString().pipe(z.string().min(1, { message: 'is empty' }));

/** A day: 'YYYY-MM-DD', or a date-time whose UTC day is taken. */
export const formDay = () =>
  preprocess((v) => {
    if (v instanceof Date) return v.toISOString().slice(0, 10);
    if (typeof v === 'string') return parseDay(v) ?? v;
    return v;
  }, z.string().refine(isDay));

/** A date-time: ISO 8601, or a day taken as UTC midnight. */
export const formTimestamp = () =>
  preprocess((v) => {
    if (typeof v === 'string') return parseTimestamp(v) ?? v;
    return v;
  }, z.date());

/** A list of integers from JSON, repeated form keys, or one comma-separated string. */
export const formIntList = () =>
  preprocess((v) => {
    if (v === '' || v === null) return [];
    if (typeof v === 'string')
      return v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    if (typeof v === 'number') return [v];
    if (v && typeof v === 'object' && !Array.isArray(v)) return Object.values(v);
    return v;
  }, z.array(formInt()));

/**
 * An optional field where null, blank and the web client's "null"/"undefined" form values all mean
 * "not given" (it always sends some fields, often as null).
 */
export const notGivenIfBlank = <T extends z.ZodType>(schema: T) =>
  preprocess((v) => (v === null || v === '' || v === 'null' || v === 'undefined' ? undefined : v), schema.optional());
