import { router } from '../../trpc/core.ts';
import { createUser } from './create.ts';
import { getUser } from './get.ts';
import { listUsers } from './list.ts';
import { listConvenors } from './convenors.ts';
import { listTutors } from './tutors.ts';
import { updateUser } from './update.ts';

// /api/users/tutors and /api/users/convenors are static routes, which the router matches
// before the parametric /api/users/{id}.
export const usersRouter = router({
  list: listUsers,
  tutors: listTutors,
  convenors: listConvenors,
  get: getUser,
  create: createUser,
  update: updateUser,
});
