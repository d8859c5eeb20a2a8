import { router } from '../../trpc/core.ts';
import { createCampus } from './create.ts';
import { deleteCampus } from './delete.ts';
import { getCampus } from './get.ts';
import { listCampusesProcedure } from './list.ts';
import { updateCampus } from './update.ts';

export const campusesRouter = router({
  list: listCampusesProcedure,
  get: getCampus,
  create: createCampus,
  update: updateCampus,
  delete: deleteCampus,
});
