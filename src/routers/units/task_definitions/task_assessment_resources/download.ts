import { downloadDefinitionFile } from '../definition-files.ts';
import { definitionFileInput } from '../schemas.ts';

export const downloadTaskAssessmentResources = downloadDefinitionFile(definitionFileInput, 'task_assessment_resources', 'taskAssessmentResources', {
  action: 'add_task_def',
  refused: 'Not authorised to download task assessment resources of unit',
  summary: "Download a task definition's assessment resources",
  description:
    'The zip as uploaded (`application/zip`, attachment `<ABBREVIATION>-assessment-resources.zip`); without one the placeholder ' +
    '`FileNotFound.pdf`, status 200. ' +
    'Unit Convenor or Admin (students never see the assessment scripts).',
  mediaType: 'application/zip',
});
