// The refusals of the alignment operations, in the original's words (learning_alignment_api.rb).
export const NOT_IN_UNIT = 'You are not authorised to access this unit.';
export const NOT_YOUR_PROJECT = 'You are not authorised to access this project.';
export const CANNOT_CREATE_UNIT_ALIGNMENT = 'You are not authorised to create task alignments in this unit.';
export const CANNOT_CREATE_TASK_ALIGNMENT = 'You are not authorised to create outcome alignments for this task.';
export const CANNOT_CHANGE_UNIT_ALIGNMENT = 'You are not authorised to update the task alignments in this unit.';
export const CANNOT_CHANGE_TASK_ALIGNMENT = 'You are not authorised to update outcome alignments for this task.';
export const CANNOT_READ_STATS = 'You are not authorised to access these task alignments.';
export const cannotDownloadCsv = (code: string) => `Not authorised to download CSV of task alignment in ${code}`;
export const cannotUploadCsv = (code: string) => `Not authorised to upload CSV of task alignment to ${code}`;

export const TAG = 'Learning alignments';
