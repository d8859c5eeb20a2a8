import { router } from '../../trpc/core.ts';

export const usersRouter = router({});
