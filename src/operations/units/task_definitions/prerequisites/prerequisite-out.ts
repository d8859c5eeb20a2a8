// The answer shapes of prerequisites, shared by the routes and the task lists (docs/prerequisites.md).
import { z } from 'zod';
import { TASK_STATUSES } from '../../../../domain/vocabulary.ts';

/** A link as GET, POST and DELETE .../prerequisites answer it. */
export const prerequisiteOut = z.object({
  id: z.number().int(),
  task_definition_id: z.number().int(),
  prerequisite_id: z.number().int().describe('The definition whose task must reach task_status first'),
  task_status: z.enum(TASK_STATUSES),
});

/** An unmet prerequisite of a student's task, as the task lists and the task's JSON carry it. */
export const unmetPrerequisiteOut = z.object({
  task_definition_id: z.number().int().describe('The prerequisite definition'),
  abbreviation: z.string(),
  task_status: z.enum(TASK_STATUSES).describe('The status its task must reach'),
});
