import { deleteDefinitionFileProcedure } from '../definition-files.ts';

export const deleteTaskResources = deleteDefinitionFileProcedure('task_resources', 'taskResources', {
  refused: 'Not authorised to remove task resources of unit',
  summary: "Remove a task definition's resources",
  description:
    'No body (204), also when there were none. Afterwards `has_task_resources` is false and the download answers the placeholder PDF. Unit Convenor or Admin.',
  status: 204,
});
