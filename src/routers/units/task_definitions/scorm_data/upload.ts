import { uploadDefinitionFile } from '../definition-files.ts';

export const uploadScormData = uploadDefinitionFile('scorm_data', 'scormData', {
  refused: 'Not authorised to upload SCORM data for the unit',
  summary: "Upload or replace a task definition's SCORM package (zip)",
  description:
    'Multipart field `file`: a zip with `imsmanifest.xml` at its root naming a launchable SCO that the zip holds, no unsafe entry path, ' +
    'within SCORM_PACKAGE_MAX_BYTES (413) and SCORM_PACKAGE_MAX_UNPACKED_BYTES; anything else is a 400 saying what is wrong. Records ' +
    '`scorm_version` and `scorm_launch_file` and answers `true`. Unit Convenor or Admin. See docs/online-tests.md.',
  status: 201,
  upload: { maxBytes: (config) => config.scormPackage.maxBytes },
  errors: [413],
});
