import { deleteDefinitionFileProcedure } from '../definition-files.ts';

export const deleteTaskAssessmentResources = deleteDefinitionFileProcedure('task_assessment_resources', 'taskAssessmentResources', {
  refused: 'Not authorised to remove task assessment resources of unit',
  summary: "Remove a task definition's assessment resources",
  description: 'No body (204), also when there were none. Afterwards `has_task_assessment_resources` is false. Unit Convenor or Admin.',
  status: 204,
});
