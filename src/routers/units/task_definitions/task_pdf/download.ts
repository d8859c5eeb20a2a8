import { downloadDefinitionFile } from '../definition-files.ts';
import { taskPdfInput } from './schemas.ts';

export const downloadTaskPdf = downloadDefinitionFile(taskPdfInput, 'task_pdf', 'taskSheet', {
  action: 'get_unit',
  refused: 'Not authorised to download task details of unit',
  summary: "Download a task definition's task sheet",
  description:
    'The sheet as `application/pdf`, named `<UNIT CODE>-<ABBREVIATION>.pdf`, shown inline unless `as_attachment=true`. ' +
    'Without a sheet: the placeholder `FileNotFound.pdf`, status 200, as the original. Staff and enrolled students of the unit.',
  mediaType: 'application/pdf',
});
