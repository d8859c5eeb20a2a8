import { z } from 'zod';
import { storageKeys } from '../../../storage/index.ts';
import { afterTaskResources } from '../../../similarity/hooks.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { definitionZipUploadInput } from './task_resources_schemas.ts';
import { storeDefinitionZip } from './task_resources_zip.ts';

export const uploadTaskResources = unitMutation(definitionZipUploadInput, {
  action: 'add_task_def',
  refused: 'Not authorised to upload tasks of unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_resources',
      tags: ['Task definitions'],
      summary: "Upload or replace a task definition's resources (zip)",
      description:
        'Multipart field `file`: a zip, checked by its content whatever its name (403 "File given is not a zip file - detected <type>" otherwise), ' +
        'and refused (403) when an entry name would unpack outside its folder (`../`, absolute or drive-letter paths). Replaces the resources whole; ' +
        'answers `true`; afterwards `has_task_resources` is true. At most MAX_UPLOAD_BYTES (413 beyond). Unit Convenor or Admin.',
    },
    rest: { upload: {}, status: 200 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    await storeDefinitionZip(ctx.storage, storageKeys.taskResources(definition.id), input.file.path);
    await afterTaskResources(ctx.em, ctx.jobs, ctx, { id: definition.id, abbreviation: definition.abbreviation, unitId: ctx.unit.id });
    return true as const;
  });
