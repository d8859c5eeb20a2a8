import { storageKeys } from '../../../storage/index.ts';
import { fileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { definitionZipInput } from './task_resources_schemas.ts';
import { definitionZipDownload } from './task_resources_zip.ts';

export const downloadTaskAssessmentResources = unitQuery(definitionZipInput, {
  action: 'add_task_def',
  refused: 'Not authorised to download task assessment resources of unit',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_assessment_resources',
      tags: ['Task definitions'],
      summary: "Download a task definition's assessment resources",
      description:
        'The zip as uploaded (`application/zip`, attachment `<ABBREVIATION>-assessment-resources.zip`); without one the placeholder `FileNotFound.pdf`, status 200. ' +
        'Unit Convenor or Admin (students never see the assessment scripts).',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    return definitionZipDownload(ctx.storage, storageKeys.taskAssessmentResources(definition.id), `${definition.abbreviation}-assessment-resources.zip`);
  });
