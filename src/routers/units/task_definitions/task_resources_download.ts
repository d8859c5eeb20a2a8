import { storageKeys } from '../../../storage/index.ts';
import { fileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { definitionZipInput } from './task_resources_schemas.ts';
import { definitionZipDownload } from './task_resources_zip.ts';

export const downloadTaskResources = unitQuery(definitionZipInput, {
  action: 'get_unit',
  refused: 'Not authorised to download task details of unit',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_resources',
      tags: ['Task definitions'],
      summary: "Download a task definition's resources",
      description:
        'The zip as uploaded (`application/zip`, attachment `<ABBREVIATION>-resources.zip`). Without resources: the placeholder `FileNotFound.pdf`, ' +
        'status 200, as the original. Staff and enrolled students of the unit.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    return definitionZipDownload(ctx.storage, storageKeys.taskResources(definition.id), `${definition.abbreviation}-resources.zip`);
  });
