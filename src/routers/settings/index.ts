import { router } from '../../trpc/core.ts';

export const settingsRouter = router({});
