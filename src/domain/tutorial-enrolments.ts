// Pure rules for a student's tutorial enrolments (beyond-spec.md §6.2): one tutorial per stream,
// and a tutorial with no stream is the only one a student can be in.

export interface CurrentEnrolment {
  id: number;
  tutorialId: number;
  streamId: number | null;
}

export type EnrolmentPlan =
  /** Already in that tutorial. */
  | { kind: 'unchanged' }
  /** A new enrolment beside the others (a stream the student has no tutorial in). */
  | { kind: 'add' }
  /** The enrolment that stands in the way moves to the new tutorial. */
  | { kind: 'move'; enrolmentId: number; fromTutorialId: number }
  /** A tutorial with no stream replaces every enrolment the student has. */
  | { kind: 'replace_all'; fromTutorialIds: number[] };

/**
 * How enrolling in `target` changes a student's enrolments: it replaces the enrolment in the same
 * stream, or a stream-less one (which stands for every stream), or, when the target has no stream,
 * the single enrolment or all of them.
 */
export function planEnrolment(current: readonly CurrentEnrolment[], target: { id: number; streamId: number | null }): EnrolmentPlan {
  const clash = current.find((e) => e.streamId === target.streamId || e.streamId === null || target.streamId === null);
  if (clash && clash.tutorialId === target.id) return { kind: 'unchanged' };
  if (target.streamId === null && current.length > 1) return { kind: 'replace_all', fromTutorialIds: current.map((e) => e.tutorialId) };
  if (!clash) return { kind: 'add' };
  return { kind: 'move', enrolmentId: clash.id, fromTutorialId: clash.tutorialId };
}

/** A capacity of 0 or less is unlimited (the original stores -1). */
export function isFull(capacity: number, enrolled: number): boolean {
  return capacity > 0 && enrolled >= capacity;
}
