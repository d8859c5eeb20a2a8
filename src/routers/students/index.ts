import { router } from '../../trpc/core.ts';
import { listStudents } from './list.ts';

export const studentsRouter = router({
  list: listStudents,
});
