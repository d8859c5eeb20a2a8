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
