// MikroORM's defineEntity infers a relation's type as the related entity (or a Reference to it),
// which does not expose a plain `id` to TypeScript without a cast at every use. These are the one
// place that cast is written.

/** The id of a loaded or unloaded related record. */
export function refId(ref: unknown): number {
  return (ref as { id: number }).id;
}

/** The id of an optional related record, or null when there is none. */
export function refIdOrNull(ref: unknown): number | null {
  return ref ? refId(ref) : null;
}
