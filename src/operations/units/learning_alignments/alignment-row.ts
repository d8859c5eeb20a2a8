/** Ratings run 1..5, as the original validates them (it once moved every 0 to 1). */
export const MIN_RATING = 1;
export const MAX_RATING = 5;

/** An alignment row as read from the table. */
export interface AlignmentRow {
  id: number;
  description: string | null;
  rating: number;
  learning_outcome_id: number;
  task_definition_id: number;
  task_id: number | null;
}

/** The spec's Learning alignment: `task_id` only on a student's own (project) alignment. */
export type AlignmentOut = Omit<AlignmentRow, 'task_id'> & { task_id?: number };

export function toAlignment({ task_id, ...rest }: AlignmentRow): AlignmentOut {
  return task_id === null ? rest : { ...rest, task_id };
}
