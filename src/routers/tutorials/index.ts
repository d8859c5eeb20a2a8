import { router } from '../../trpc/core.ts';
import { createTutorial } from './create.ts';
import { deleteTutorial } from './delete.ts';
import { updateTutorial } from './update.ts';

export const tutorialsRouter = router({
  create: createTutorial,
  update: updateTutorial,
  delete: deleteTutorial,
});
