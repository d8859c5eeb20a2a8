import { router } from '../../../../trpc/core.ts';
import { createTutorialEnrolment } from './create.ts';
import { deleteTutorialEnrolment } from './delete.ts';

/** /api/units/{unit_id}/tutorials/{tutorial_abbr}/enrolments/{project_id} */
export const tutorialEnrolmentsRouter = router({
  create: createTutorialEnrolment,
  delete: deleteTutorialEnrolment,
});
