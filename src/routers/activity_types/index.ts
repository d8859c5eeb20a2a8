import { router } from '../../trpc/core.ts';
import { createActivityType } from './create.ts';
import { deleteActivityType } from './delete.ts';
import { getActivityType } from './get.ts';
import { listActivityTypes } from './list.ts';
import { updateActivityType } from './update.ts';

export const activityTypesRouter = router({
  list: listActivityTypes,
  get: getActivityType,
  create: createActivityType,
  update: updateActivityType,
  delete: deleteActivityType,
});
