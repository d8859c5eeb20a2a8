import { router } from '../../../trpc/core.ts';
import { createTutorialStream } from './create.ts';
import { deleteTutorialStream } from './delete.ts';
import { updateTutorialStream } from './update.ts';

/** /api/units/{unit_id}/tutorial_streams */
export const tutorialStreamsRouter = router({
  create: createTutorialStream,
  update: updateTutorialStream,
  delete: deleteTutorialStream,
});
