import { router } from '../../trpc/core.ts';
import { listProjects } from './list.ts';

export const projectsRouter = router({
  list: listProjects,
});
