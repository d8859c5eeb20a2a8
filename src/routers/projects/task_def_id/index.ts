import { router } from '../../../trpc/core.ts';
import { assessExtension } from './assess_extension/assess.ts';
import { commentsRouter } from './comments/index.ts';
import { escalationsRouter } from './escalations/index.ts';
import { triggerOverseerAssessment } from './overseer_assessment/trigger.ts';
import { requestExtension } from './request_extension/request.ts';
import { submissionRouter } from './submission/index.ts';
import { getRubricMarks } from './rubric_marks/get.ts';
import { markRubric } from './rubric_marks/update.ts';
import { updateTask } from './update.ts';
import { applyFeedbackTemplates } from './feedback_templates/apply.ts';
import { assessScormExtension } from './assess_scorm_extension/assess.ts';
import { requestScormExtension } from './request_scorm_extension/request.ts';
import { testAttemptsRouter } from './test_attempts/index.ts';

// /api/projects/{id}/task_def_id/{task_definition_id}/...: one student's task. The procedure keys
// (the /trpc paths) are older than the folders and stay as they were.
export const taskRouter = router({
  update: updateTask,
  submission: submissionRouter,
  // .../request_extension and .../assess_extension/{task_comment_id}.
  extensions: router({
    request: requestExtension,
    assess: assessExtension,
  }),
  comments: commentsRouter,
  // .../feedback_templates
  feedbackTemplates: applyFeedbackTemplates,
  escalations: escalationsRouter,
  // .../overseer_assessment/{oa_id}/trigger
  overseer: router({
    trigger: triggerOverseerAssessment,
  }),
  // .../test_attempts: attempts at the task's online test.
  testAttempts: testAttemptsRouter,
  // .../request_scorm_extension and .../assess_scorm_extension/{task_comment_id}: more attempts.
  scormExtensions: router({
    request: requestScormExtension,
    assess: assessScormExtension,
  }),
  // .../rubric_marks
  rubricMarks: router({
    get: getRubricMarks,
    mark: markRubric,
  }),
});
