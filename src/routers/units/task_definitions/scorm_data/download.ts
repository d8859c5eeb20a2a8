import { downloadDefinitionFile } from '../definition-files.ts';
import { definitionFileInput } from '../schemas.ts';

export const downloadScormData = downloadDefinitionFile(definitionFileInput, 'scorm_data', 'scormData', {
  action: 'get_unit',
  refused: 'Not authorised to download task details of unit',
  summary: "Download a task definition's SCORM package",
  description:
    'The package as uploaded (`application/zip`, attachment `<ABBREVIATION>-scorm.zip`); also at `.../scorm_data.json`, where the newer web ' +
    'client asks. Without a package: the placeholder `FileNotFound.pdf`, status 200, as the original. Staff and enrolled students of the unit.',
  mediaType: 'application/zip',
});
