// POST /api/projects/{id}/task_def_id/{td}/submission (behaviour.md §5.1, beyond-spec.md §4.1).
import { submitWork } from '../../../../operations/projects/task_def_id/submission/submit-work.ts';
import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { updatedTaskOut } from '../schemas.ts';
import { SUBMISSION_UPLOAD_BYTES, uploadInput } from './schemas.ts';

export const uploadSubmission = taskMutation(uploadInput, {
  project: 'make_submission',
  refused: (_projectId, definition) => `Not authorised to submit task '${definition.name}'`,
})
  .meta(
    route(
      'POST',
      '/api/projects/{id}/task_def_id/{task_definition_id}/submission',
      'Projects, submissions, comments',
      'Submit work for a task: one file per upload requirement',
      {
        description:
          "The student or the unit's staff. Multipart: one file per upload requirement, under the requirement's `key`; " +
          'the task is handed in (or `trigger=need_help` asks for help) and its PDF is queued. Answers 201 with the ' +
          'task. See docs/api/projects.md.',
        rest: { upload: { maxBytes: SUBMISSION_UPLOAD_BYTES } },
      },
    ),
  )
  .output(updatedTaskOut)
  .mutation(({ ctx, input }) =>
    submitWork(
      ctx.em,
      { storage: ctx.storage, config: ctx.config, jobs: ctx.jobs, afterCommit: ctx.afterCommit, now: ctx.clock.now() },
      { userId: ctx.user.id, role: ctx.projectRole, unit: ctx.unit, project: ctx.project, definition: ctx.definition, taskId: ctx.taskId },
      input,
    ),
  );
