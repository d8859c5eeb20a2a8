import { badRequest, formKey } from '../lib/errors.ts';

const NUL = '\u0000';

/**
 * PostgreSQL cannot store a NUL byte in text, and the driver's refusal is a protocol error that
 * says nothing about which field held it. So every string of a procedure's raw input (keys,
 * values, an upload's file name as `file[filename]`) is looked at before any schema or the
 * database sees it, and the first with a NUL names its field the way validation errors do:
 * `campus[name] is invalid ...`.
 *
 * Iterative, because a 1 MiB JSON body can nest arrays far deeper than the call stack allows.
 */
export function nulByteProblem(input: unknown): string | undefined {
  // Paths are linked back to their parent rather than copied, so deep nesting stays linear.
  type Path = { parent: Path; key: PropertyKey } | null;
  const key = (path: Path) => {
    const keys: PropertyKey[] = [];
    for (let p = path; p; p = p.parent) keys.push(p.key);
    return formKey(keys.reverse());
  };
  const stack: [value: unknown, path: Path][] = [[input, null]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return `${key(path)} is invalid (contains a NUL byte)`;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], { parent: path, key: i }]);
    } else if (value && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
      const entries = Object.entries(value);
      if (entries.some(([k]) => k.includes(NUL))) return `${key(path)} has a field name that contains a NUL byte`;
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], { parent: path, key: entries[i][0] }]);
    }
  }
  return undefined;
}

/** Throws the 400 for a NUL byte anywhere in `input`. */
export function rejectNulBytes(input: unknown): void {
  const problem = nulByteProblem(input);
  if (problem) throw badRequest(problem);
}
