import { uploadDefinitionFile } from '../definition-files.ts';

export const uploadTaskResources = uploadDefinitionFile('task_resources', 'taskResources', {
  refused: 'Not authorised to upload tasks of unit',
  summary: "Upload or replace a task definition's resources (zip)",
  description:
    'Multipart field `file`: a zip (by content) with no entry that unpacks outside its folder (403 otherwise); replaces the ' +
    'resources whole and answers `true`. Unit Convenor or Admin. See docs/api/taskdefs.md.',
  status: 200,
});
