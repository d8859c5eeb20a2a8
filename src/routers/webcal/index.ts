import { router } from '../../trpc/core.ts';

export const webcalRouter = router({});
