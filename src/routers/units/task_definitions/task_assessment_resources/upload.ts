import { uploadDefinitionFile } from '../definition-files.ts';

export const uploadTaskAssessmentResources = uploadDefinitionFile('task_assessment_resources', 'taskAssessmentResources', {
  refused: 'Not authorised to upload tasks of unit',
  summary: "Upload or replace a task definition's assessment resources (zip)",
  description:
    'The zip the automated assessment runs with (`build.sh`, `run.sh`). Multipart field `file`, checked as for `task_resources` (a zip by content, ' +
    'no entry name that unpacks outside its folder; 403 otherwise). Answers `true` (201); afterwards ' +
    '`has_task_assessment_resources` is true. Unit Convenor or Admin.',
  status: 201,
});
