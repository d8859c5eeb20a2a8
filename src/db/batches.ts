// PostgreSQL takes at most 65,535 parameters in one statement, so a statement that carries a
// parameter (or a few) per item of a list of unknown length is issued once per batch of the list.

/** `items` cut into consecutive batches of at most `size`, in order; none for an empty list. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
