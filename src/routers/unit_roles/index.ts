import { router } from '../../trpc/core.ts';
import { listUnitRoles } from './list.ts';

export const unitRolesRouter = router({
  list: listUnitRoles,
});
