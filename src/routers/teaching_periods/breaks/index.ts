import { router } from '../../../trpc/core.ts';
import { createBreak } from './create.ts';
import { deleteBreak } from './delete.ts';
import { listBreaks } from './list.ts';
import { updateBreak } from './update.ts';

export const breaksRouter = router({
  list: listBreaks,
  create: createBreak,
  update: updateBreak,
  delete: deleteBreak,
});
