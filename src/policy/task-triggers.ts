// Who may move a task to which status (behaviour.md §4.2 steps 1, 2 and 5). The task rules of
// src/domain/task-rules.ts then work out what the move does; this says only whether the actor may.
import type { TaskStatus } from '../../schema/enums.ts';
import type { TaskTerms } from '../domain/task-rules.ts';
import { CLOSED, isStaffAssigned, STUDENT_STATUSES } from '../domain/task-status.ts';
import { canInTask, type TaskRole } from './scopes.ts';

/** The caller's part in the task: its student, staff of the unit, or a fellow group member. */
export type TaskActor = TaskRole;

export type TriggerCheck = { ok: true } | { ok: false; reason: 'no_role' | 'restricted' | 'closed' | 'staff_only' };

/**
 * Whether this actor may move the task from its status to `target`: staff (who `assess`) any way;
 * others only their own statuses, and not out of a closed or restricted one.
 */
export function mayTrigger(actor: TaskActor | null, current: TaskStatus, target: TaskStatus, terms: Pick<TaskTerms, 'restrictStatusUpdates'>): TriggerCheck {
  if (actor === null) return { ok: false, reason: 'no_role' };
  const assesses = canInTask(actor, 'assess');
  if (!assesses) {
    if (terms.restrictStatusUpdates && isStaffAssigned(current)) return { ok: false, reason: 'restricted' };
    if (CLOSED.has(current)) return { ok: false, reason: 'closed' };
  }
  if (target === 'ready_for_feedback' || STUDENT_STATUSES.has(target)) return { ok: true };
  return assesses ? { ok: true } : { ok: false, reason: 'staff_only' };
}
