import { router } from '../../trpc/core.ts';

export const projectsRouter = router({});
