// GET .../submissions/timestamps (spec §4, §8 item 2): the latest ten uploads, as text lines.
import { route } from '../../../../trpc/route.ts';
import { z } from 'zod';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { getRefusal } from '../submission/download.ts';
import { submissionTimestamps as timestamps } from '../../../../operations/projects/task_def_id/submissions/submission-timestamps.ts';
import { taskOnlyInput } from './schemas.ts';

export const submissionTimestamps = taskQuery(taskOnlyInput, { project: 'get_submission', refused: (_id, definition) => getRefusal(definition) })
  .meta(
    route(
      'GET',
      '/api/projects/{id}/task_def_id/{task_definition_id}/submissions/timestamps',
      'Projects, submissions, comments',
      "The times of a task's latest ten uploads",
      {
        description:
          '`text/plain`, one line per upload, newest first, at most ten: `Submission N: <ISO 8601 timestamp>`, N ' +
          "counting the task's uploads from 1 (group members see the group's uploads). See docs/api/projects.md.",
        rest: { text: true },
      },
    ),
  )
  .output(z.string())
  .query(({ ctx }) => timestamps(ctx.em, ctx.taskId));
