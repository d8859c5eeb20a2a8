import { deleteDefinitionFileProcedure } from '../definition-files.ts';

export const deleteTaskSheet = deleteDefinitionFileProcedure('task_sheet', 'taskSheet', {
  refused: 'Not authorised to remove task sheets of unit',
  summary: "Remove a task definition's task sheet",
  description:
    'Answers `true`, also when there was no sheet. Afterwards `has_task_sheet` is false and `task_pdf` answers the placeholder PDF. Unit Convenor or Admin.',
  status: 200,
});
