import { router } from '../../../../trpc/core.ts';
import { latestSubmissionOutput, submissionOutputAt } from '../submissions/assessment-output.ts';
import { submissionDetails } from '../submission_details/get.ts';
import { downloadSubmission } from './download.ts';
import { downloadSubmissionFiles } from '../submission_files/download.ts';
import { regenerateSubmissionPdf } from './regenerate.ts';
import { submissionTimestamps } from '../submissions/timestamps.ts';
import { uploadSubmission } from './upload.ts';

// .../task_def_id/{td}/submission, submission_details, submission_files and submissions/...: a task's uploads.
export const submissionRouter = router({
  upload: uploadSubmission,
  download: downloadSubmission,
  regenerate: regenerateSubmissionPdf,
  details: submissionDetails,
  files: downloadSubmissionFiles,
  timestamps: submissionTimestamps,
  outputAt: submissionOutputAt,
  latest: latestSubmissionOutput,
});
