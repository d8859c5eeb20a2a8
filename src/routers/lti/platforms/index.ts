import { router } from '../../../trpc/core.ts';
import { createPlatform } from './create.ts';
import { deletePlatform } from './delete.ts';
import { getPlatform } from './get.ts';
import { listPlatforms } from './list.ts';
import { updatePlatform } from './update.ts';

export const ltiPlatformsRouter = router({
  create: createPlatform,
  list: listPlatforms,
  get: getPlatform,
  update: updatePlatform,
  delete: deletePlatform,
});
