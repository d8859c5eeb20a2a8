import { router } from '../../trpc/core.ts';
import { webcalFeed } from './feed.ts';
import { getWebcal } from './get.ts';
import { updateWebcalProcedure } from './update.ts';

export const webcalRouter = router({
  get: getWebcal,
  update: updateWebcalProcedure,
  feed: webcalFeed,
});
