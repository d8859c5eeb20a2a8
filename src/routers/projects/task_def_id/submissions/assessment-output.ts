// GET .../submissions/timestamps/{timestamp} and .../submissions/latest: the automated assessment's output text.
import { z } from 'zod';
import type { Meta } from '../../../../trpc/core.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { route } from '../../../../trpc/route.ts';
import { canInTask } from '../../../../policy/index.ts';
import { getRefusal } from '../submission/download.ts';
import { assessmentOutputAt, latestAssessmentOutput } from '../../../../operations/projects/task_def_id/submissions/assessment-output.ts';
import { taskOnlyInput, timestampInput } from './schemas.ts';

const textMeta = (path: `/api/${string}`, summary: string, description: string): Meta =>
  route('GET', path, 'Projects, submissions, comments', summary, { description, rest: { text: true } });

export const submissionOutputAt = taskQuery(timestampInput, { project: 'get_submission', refused: (_id, definition) => getRefusal(definition) })
  .meta(
    textMeta(
      '/api/projects/{id}/task_def_id/{task_definition_id}/submissions/timestamps/{timestamp}',
      'The automated assessment output of one upload',
      '`text/plain`: what the automated assessment of the upload made at `timestamp` (ISO 8601 as `submissions/timestamps` lists it, URL-encoded; ' +
        'unix seconds also match) wrote. 404 when no upload was made then, or its assessment has written no output (yet). 400 for a timestamp ' +
        "that is not ISO 8601. The student or the unit's staff.",
    ),
  )
  .output(z.string())
  .query(({ ctx, input }) => assessmentOutputAt(ctx.em, ctx.storage, ctx.taskId, input.timestamp, canInTask(ctx.projectRole, 'see_assessment_diffs')));

export const latestSubmissionOutput = taskQuery(taskOnlyInput, { project: 'get_submission', refused: (_id, definition) => getRefusal(definition) })
  .meta(
    textMeta(
      '/api/projects/{id}/task_def_id/{task_definition_id}/submissions/latest',
      'The automated assessment output of the latest upload',
      "`text/plain`: what the automated assessment of the task's latest upload wrote. 404 when nothing was uploaded, or the assessment has " +
        "written no output (yet). The student or the unit's staff.",
    ),
  )
  .output(z.string())
  .query(({ ctx }) => latestAssessmentOutput(ctx.em, ctx.storage, ctx.taskId, canInTask(ctx.projectRole, 'see_assessment_diffs')));
