import { router } from '../../trpc/core.ts';
import { createUnitRole } from './create.ts';
import { deleteUnitRole } from './delete.ts';
import { listUnitRoles } from './list.ts';
import { updateUnitRole } from './update.ts';

export const unitRolesRouter = router({
  list: listUnitRoles,
  create: createUnitRole,
  update: updateUnitRole,
  delete: deleteUnitRole,
});
