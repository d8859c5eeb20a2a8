import { router } from '../../trpc/core.ts';

export const unitRolesRouter = router({});
