import { downloadDefinitionFile } from '../definition-files.ts';
import { definitionFileInput } from '../schemas.ts';

export const downloadTaskResources = downloadDefinitionFile(definitionFileInput, 'task_resources', 'taskResources', {
  action: 'get_unit',
  refused: 'Not authorised to download task details of unit',
  summary: "Download a task definition's resources",
  description:
    'The zip as uploaded (`application/zip`, attachment `<ABBREVIATION>-resources.zip`). Without resources: the placeholder `FileNotFound.pdf`, ' +
    'status 200, as the original. Staff and enrolled students of the unit.',
  mediaType: 'application/zip',
});
