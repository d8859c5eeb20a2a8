/**
 * A submitted file the PDF cannot be built from (a broken or encrypted PDF, an image that does not
 * decode, a notebook that is not JSON). The student must fix it: the task goes to fix and resubmit,
 * not back into the queue. The message completes "'<file>' ...".
 */
export class SubmissionFileError extends Error {}
