// A project's progress bar (behaviour.md §4.6): the share of its counted tasks in each colour.
// Stored on the project and recomputed when a task's status or the target grade changes, so the
// students list reads it instead of counting tasks per request.
import type { TaskStatus } from './vocabulary.ts';

/** Progress fractions shown as the coloured bar; recomputed when a task changes status. */
export interface ProjectStats {
  red_pct: number;
  grey_pct: number;
  orange_pct: number;
  blue_pct: number;
  green_pct: number;
  order_scale: number;
}

/** No counted task definitions yet: everything grey. */
export const EMPTY_STATS: ProjectStats = { red_pct: 0, grey_pct: 1, orange_pct: 0, blue_pct: 0, green_pct: 0, order_scale: 0 };

const COLOUR: Partial<Record<TaskStatus, 'red' | 'orange' | 'green' | 'blue'>> = {
  fail: 'red',
  feedback_exceeded: 'red',
  time_exceeded: 'red',
  redo: 'orange',
  need_help: 'orange',
  fix_and_resubmit: 'orange',
  discuss: 'green',
  demonstrate: 'green',
  complete: 'green',
  ready_for_feedback: 'blue',
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * `definitions` is how many task definitions of the unit the project aims for (target grade at
 * or below the project's); `statuses` are its tasks' statuses for those definitions. Grey covers
 * tasks not started, in progress or never created.
 */
export function projectStats(definitions: number, statuses: readonly TaskStatus[]): ProjectStats {
  if (definitions === 0) return { ...EMPTY_STATS };
  const counts = { red: 0, orange: 0, green: 0, blue: 0 };
  for (const status of statuses) {
    const colour = COLOUR[status];
    if (colour) counts[colour]++;
  }
  const red = round2(counts.red / definitions);
  const orange = round2(counts.orange / definitions);
  const green = round2(counts.green / definitions);
  const blue = round2(counts.blue / definitions);
  return {
    red_pct: red,
    grey_pct: round2(1 - red - orange - green - blue),
    orange_pct: orange,
    blue_pct: blue,
    green_pct: green,
    order_scale: round2(100 * green + 100 * blue + 10 * orange - red),
  };
}
