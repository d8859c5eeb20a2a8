import { z } from 'zod';
import { idField } from '../../../../trpc/fields.ts';

// `/api/projects/{project_id}/task_def_id/{task_definition_id}/rubric_marks`
export const markPath = z.object({ project_id: idField(), task_definition_id: idField() });

export const markInput = markPath.extend({
  choices: z.array(z.object({ criterion_id: z.number().int().positive(), level_id: z.number().int().positive() })).max(50),
});

const chosenLevel = z.object({ id: z.number(), title: z.string(), description: z.string(), points: z.number() });

export const markOut = z.object({
  task_id: z.number(),
  task_definition_id: z.number(),
  score: z.number(),
  max_score: z.number(),
  grade: z.number().nullable(),
  quality_pts: z.number(),
  marker: z.object({ id: z.number(), name: z.string() }).nullable(),
  marked_at: z.string(),
  criteria: z.array(z.object({ criterion_id: z.number(), title: z.string(), description: z.string(), level: chosenLevel.nullable() })),
});
