import { deleteDefinitionFileProcedure } from '../definition-files.ts';

export const deleteScormData = deleteDefinitionFileProcedure('scorm_data', 'scormData', {
  refused: 'Not authorised to remove task SCORM data of unit',
  summary: "Remove a task definition's SCORM package",
  description:
    'Removes the package and resets the SCORM settings (`scorm_enabled`, review, bypass, time delay, attempt limit, trust, pass status) ' +
    'to their defaults, as the original does; answers `true`, also when there was none. Unit Convenor or Admin.',
  status: 200,
});
