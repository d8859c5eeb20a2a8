import { router } from '../../trpc/core.ts';
import { engagementsRouter } from './engagements/index.ts';
import { listProjectDiscussionPrompts } from './discussion_prompts/list.ts';
import { enrolStudent } from './enrol.ts';
import { getProject } from './get.ts';
import { listProjects } from './list.ts';
import { refreshTask } from './refresh_tasks/refresh.ts';
import { staffNotesRouter } from './staff_notes/index.ts';
import { taskRouter } from './task_def_id/index.ts';
import { updateProject } from './update.ts';
import { taskChanges } from './task-changes.ts';

export const projectsRouter = router({
  list: listProjects,
  enrol: enrolStudent,
  get: getProject,
  update: updateProject,
  task: taskRouter,
  refreshTask: refreshTask,
  taskChanges,
  staffNotes: staffNotesRouter,
  engagements: engagementsRouter,
  discussionPrompts: listProjectDiscussionPrompts,
});
