import { router } from '../../../trpc/core.ts';
import { updateTask } from './update.ts';
import { submissionRouter } from './submission/index.ts';
import { extensionsRouter } from './extensions/index.ts';
import { commentsRouter } from './comments/index.ts';
import { overseerRouter } from './overseer/index.ts';

// /api/projects/{id}/task_def_id/{task_definition_id}/...: one student's task.
export const taskRouter = router({
  update: updateTask,
  submission: submissionRouter,
  extensions: extensionsRouter,
  comments: commentsRouter,
  overseer: overseerRouter,
});
