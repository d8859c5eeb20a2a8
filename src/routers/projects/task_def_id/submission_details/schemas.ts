export { taskOnlyInput } from '../submission/schemas.ts';
export { submissionDetailsOut, type SubmissionDetailsOut } from '../../../../operations/projects/task_def_id/submission_details/submission-details.ts';

/** Who may not read the task's submission (details and files) is told this. */
export const READ_REFUSAL = 'You do not have permission to read submissions for this project.';
