import { router } from '../../trpc/core.ts';
import { webcalFeed } from './feed.ts';
import { getWebcal } from './get.ts';
import { updateWebcal } from './update.ts';

export const webcalRouter = router({
  get: getWebcal,
  update: updateWebcal,
  feed: webcalFeed,
});
