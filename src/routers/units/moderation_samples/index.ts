import { router } from '../../../trpc/core.ts';
import { createSample } from './create.ts';
import { getSample } from './get.ts';
import { listSamples } from './list.ts';
import { reviewSampleItem } from './review.ts';

/** /api/units/{unit_id}/moderation_samples */
export const moderationSamplesRouter = router({
  list: listSamples,
  create: createSample,
  get: getSample,
  review: reviewSampleItem,
});
