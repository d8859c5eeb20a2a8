/** An error and its causes (and an AggregateError's errors), nearest first, at most a few levels deep. */
export function anyCause(error: unknown, test: (e: { code?: unknown; message?: unknown; syscall?: unknown; path?: unknown }) => boolean): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e as { code?: unknown; message?: unknown })) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => anyCause(inner, test))) return true;
  }
  return false;
}

/** The first `code` in the error's chain that `codes` holds. */
export function codeIn(error: unknown, codes: ReadonlySet<string>): string | undefined {
  let found: string | undefined;
  anyCause(error, (e) => {
    const code = String(e.code ?? '');
    if (codes.has(code)) found = code;
    return found !== undefined;
  });
  return found;
}
