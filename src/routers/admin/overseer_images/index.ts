import { router } from '../../../trpc/core.ts';

export const overseerImagesRouter = router({});
