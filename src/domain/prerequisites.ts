// The pure rules of task prerequisites (docs/prerequisites.md): when a link between two task
// definitions of a unit may exist, and when a student's task has reached the status a link asks of
// it. No I/O: the operations pass the definitions and the unit's links in.
import { PASSING, READY_OR_COMPLETE, STATUS_NAMES } from './task-status.ts';
import { TASK_STATUSES, type TaskStatus } from './vocabulary.ts';

/** What the rules read of a task definition. */
export interface LinkEnd {
  id: number;
  unitId: number;
  abbreviation: string;
  /** 'YYYY-MM-DD'. */
  targetDate: string;
  targetGrade: number;
}

/** A link: the dependent definition needs `prerequisite_id` to reach a status first. */
export interface LinkPair {
  task_definition_id: number;
  prerequisite_id: number;
}

/**
 * The statuses that count as having reached `required`. A task moves forward through handing in
 * (ready_for_feedback), talking it over (discuss, demonstrate) and sign-off (complete), so a later
 * step of that path reaches an earlier one: complete reaches everything, discuss and demonstrate
 * reach each other and ready_for_feedback, and working_on_it or need_help are reached by any status
 * but not_started (the student has begun). Work sent back (fix_and_resubmit, redo) no longer counts as
 * handed in. Any other required status (fix_and_resubmit, redo, feedback_exceeded, fail,
 * time_exceeded) is reached only by being in it. not_started is reached by every status.
 */
export function statusesReaching(required: TaskStatus): ReadonlySet<TaskStatus> {
  switch (required) {
    case 'not_started':
      return new Set(TASK_STATUSES);
    case 'working_on_it':
    case 'need_help':
      return new Set(TASK_STATUSES.filter((s) => s !== 'not_started'));
    case 'ready_for_feedback':
      return READY_OR_COMPLETE;
    case 'discuss':
    case 'demonstrate':
      return PASSING;
    default:
      return new Set([required]);
  }
}

/** Whether a task in `actual` (a missing task counts as not_started) has reached `required`. */
export const hasReached = (actual: TaskStatus, required: TaskStatus): boolean => statusesReaching(required).has(actual);

/** Every (required, actual) pair where actual reaches required: what SQL compares with, in one list. */
export const REACHING_PAIRS: readonly (readonly [TaskStatus, TaskStatus])[] = TASK_STATUSES.flatMap((required) =>
  [...statusesReaching(required)].map((actual) => [required, actual] as const),
);

/** The rules a link's two ends must keep (also checked when either definition changes): null when kept. */
export function pairProblem(dependent: LinkEnd, prerequisite: LinkEnd): string | null {
  if (dependent.id === prerequisite.id) return `${dependent.abbreviation} cannot be a prerequisite of itself`;
  if (dependent.unitId !== prerequisite.unitId) return `${prerequisite.abbreviation} belongs to another unit than ${dependent.abbreviation}`;
  if (prerequisite.targetDate > dependent.targetDate) {
    return `${prerequisite.abbreviation} is due later (${prerequisite.targetDate}) than ${dependent.abbreviation} (${dependent.targetDate}), so it cannot be its prerequisite`;
  }
  if (prerequisite.targetGrade > dependent.targetGrade) {
    return `${prerequisite.abbreviation} has a higher target grade (${prerequisite.targetGrade}) than ${dependent.abbreviation} (${dependent.targetGrade}), so it cannot be its prerequisite`;
  }
  return null;
}

/**
 * The path of definition ids from `from` to `to` following prerequisite links (each definition to
 * the ones it needs), or null when there is none. Breadth first: the shortest path is named.
 */
export function prerequisitePath(links: readonly LinkPair[], from: number, to: number): number[] | null {
  const needs = new Map<number, number[]>();
  for (const l of links) needs.set(l.task_definition_id, [...(needs.get(l.task_definition_id) ?? []), l.prerequisite_id]);
  const cameFrom = new Map<number, number>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (at === to) {
      const path = [at];
      while (path[0] !== from) path.unshift(cameFrom.get(path[0]!)!);
      return path;
    }
    for (const next of needs.get(at) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

/**
 * Why a new link from `dependent` to `prerequisite` may not be added to the unit's `links`, or null.
 * A cycle of any length is refused (the original checks only the direct reverse pair); a duplicate
 * pair is for the caller (a 409, docs/prerequisites.md).
 */
export function linkProblem(dependent: LinkEnd, prerequisite: LinkEnd, links: readonly LinkPair[], abbreviationOf: (id: number) => string): string | null {
  const pair = pairProblem(dependent, prerequisite);
  if (pair) return pair;
  const back = prerequisitePath(links, prerequisite.id, dependent.id);
  if (back === null) return null;
  if (back.length === 2) return `${prerequisite.abbreviation} already has ${dependent.abbreviation} as its prerequisite`;
  const cycle = [dependent.id, ...back].map(abbreviationOf).join(' → ');
  return `The link would make a cycle of prerequisites: ${cycle}`;
}

/** An unmet prerequisite, as the task lists and refusals name it. */
export interface UnmetPrerequisite {
  task_definition_id: number;
  abbreviation: string;
  task_status: TaskStatus;
}

/** The refusal of a student's upload or hand-in while prerequisites are unmet. */
export function unmetMessage(unmet: readonly UnmetPrerequisite[]): string {
  const named = unmet.map((u) => `${u.abbreviation} must reach ${STATUS_NAMES[u.task_status]} (${u.task_status})`).join('; ');
  return `This task is locked until its prerequisites are met: ${named}`;
}

/** A link as the task-definition CSV writes it: the prerequisite by abbreviation within the unit. */
export interface CsvPrerequisite {
  abbreviation: string;
  task_status: TaskStatus;
}

/** The CSV's `prerequisites` cell: a JSON array of `{abbreviation, task_status}`; throws with what is wrong. */
export function parsePrerequisitesJson(text: string): CsvPrerequisite[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('is not valid JSON');
  }
  if (!Array.isArray(value)) throw new Error('must be a JSON array of {abbreviation, task_status}');
  return value.map((item, i) => {
    const entry = item as { abbreviation?: unknown; task_status?: unknown } | null;
    if (typeof entry !== 'object' || entry === null || typeof entry.abbreviation !== 'string' || entry.abbreviation.trim() === '') {
      throw new Error(`entry ${i + 1} needs an abbreviation`);
    }
    const status = entry.task_status === undefined ? 'complete' : entry.task_status;
    if (typeof status !== 'string' || !(TASK_STATUSES as readonly string[]).includes(status)) {
      throw new Error(`entry ${i + 1} has an unknown task_status: ${String(status)}`);
    }
    return { abbreviation: entry.abbreviation.trim(), task_status: status as TaskStatus };
  });
}
