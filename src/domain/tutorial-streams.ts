// Pure rules for a unit's tutorial streams (beyond-spec.md §6.3).

export interface StreamNaming {
  name: string;
  abbreviation: string;
}

/**
 * A new stream of an activity type is named after it with the first number n (1, 2, ...) for
 * which neither "<type name> n" nor "<type abbreviation> n" is taken in the unit.
 */
export function nextStreamNaming(type: StreamNaming, taken: readonly StreamNaming[]): StreamNaming {
  const names = new Set(taken.map((s) => s.name));
  const abbreviations = new Set(taken.map((s) => s.abbreviation));
  for (let n = 1; ; n++) {
    const candidate = { name: `${type.name} ${n}`, abbreviation: `${type.abbreviation} ${n}` };
    if (!names.has(candidate.name) && !abbreviations.has(candidate.abbreviation)) return candidate;
  }
}

/**
 * What becomes of a deleted stream's task definitions, given how many streams the unit has
 * (this one included): with two they move to the other stream, with one they lose their
 * stream, with more the stream cannot be deleted.
 */
export function taskDefinitionsOnStreamDeletion(streamCount: number): 'move_to_other' | 'clear' | 'refuse' {
  if (streamCount > 2) return 'refuse';
  return streamCount === 2 ? 'move_to_other' : 'clear';
}

export const STREAM_HAS_TASK_DEFINITIONS =
  'cannot be deleted as it has task definitions associated with it, and it is not the last (or second last) tutorial stream';
