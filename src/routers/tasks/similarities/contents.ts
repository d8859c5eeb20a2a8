import { NO_DETAILS, similarityContents as contentsOf } from '../../../operations/tasks/similarities/similarity-contents.ts';
import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { similarityQuery } from '../../../trpc/scopes/index.ts';
import { similarityContentsInput } from './schemas.ts';

export const similarityContents = similarityQuery(similarityContentsInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
})
  .meta(
    route('GET', '/api/tasks/{task_id}/similarities/{id}/contents/{idx}', 'Tasks and similarities', 'A part of a similarity report', {
      description:
        "Code similarities: part 0 this task's code, part 1 the other's, as `text/plain`; document similarities: part 0 the PDF report. " +
        `404 "${NO_DETAILS}" otherwise. Staff of the task's unit. See docs/api/taskdefs.md.`,
      rest: { file: true },
    }),
  )
  .output(fileResult())
  .query(({ ctx, input }) => contentsOf(ctx.em, ctx.storage, ctx.task, input));
