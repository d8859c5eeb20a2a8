// The analytics page's three reads (behaviour.md §4.8, beyond-spec.md §2.3).
import { z } from 'zod';
import { studentTargetGrades, taskCompletionStats, taskStatusPct } from '../../operations/units/stats/unit-stats.ts';
import type { Meta } from '../../trpc/core.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { unitIdInput } from './schemas.ts';

const refused = (code: string) => `Not authorised to download stats of student tasks in ${code}`;

const statisticOut = z.object({ median: z.number(), lower: z.number(), upper: z.number(), min: z.number(), max: z.number() });
const scope = { field: 'id', action: 'download_stats', refused: (id: number, unit?: { code: string }) => refused(unit?.code ?? String(id)) } as const;

function meta(path: string, summary: string, description: string): Meta {
  return { openapi: { method: 'GET' as const, path: `/api/units/{id}/stats/${path}` as const, tags: ['Units'], summary, description } };
}

export const taskStatusPctProcedure = unitQuery(unitIdInput, scope)
  .meta(
    meta(
      'task_status_pct',
      'Task statuses per definition and tutorial',
      'Keyed by task definition id (every definition, possibly `{}`), then tutorial id (`""` for students in no matching tutorial): ' +
        '`[{tutorial_stream_id, status, num}]`, with a `not_started` entry for students aiming at the definition who have not started it. ' +
        'Unit staff and admins.',
    ),
  )
  .output(
    z.record(
      z.string(),
      z.record(z.string(), z.array(z.object({ tutorial_stream_id: z.number().int().nullable(), status: z.string(), num: z.number().int() }))),
    ),
  )
  .query(({ ctx }) => taskStatusPct(ctx.em, ctx.unit.id));

export const studentTargetGradeProcedure = unitQuery(unitIdInput, scope)
  .meta(
    meta(
      'student_target_grade',
      'Enrolled students per tutorial and target grade',
      'Each enrolled student counts once per tutorial enrolment (`tutorial_id` null without one), ordered by tutorial then grade. Unit staff and admins.',
    ),
  )
  .output(
    z.array(
      z.object({ tutorial_id: z.number().int().nullable(), tutorial_stream_id: z.number().int().nullable(), grade: z.number().int(), num: z.number().int() }),
    ),
  )
  .query(({ ctx }) => studentTargetGrades(ctx.em, ctx.unit.id));

export const taskCompletionStatsProcedure = unitQuery(unitIdInput, scope)
  .meta(
    meta(
      'task_completion_stats',
      'Completed tasks per student: unit, each tutorial, each target grade',
      '`{unit, tutorial: {<id>: S}, grade: {"0".."3": S}}`, S = `{median, lower, upper, min, max}` over students with at least one ' +
        'complete task (zeros without any). Unit staff and admins.',
    ),
  )
  .output(z.object({ unit: statisticOut, tutorial: z.record(z.string(), statisticOut), grade: z.record(z.string(), statisticOut) }))
  .query(({ ctx }) => taskCompletionStats(ctx.em, ctx.unit.id));
