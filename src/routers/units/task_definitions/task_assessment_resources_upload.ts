import { z } from 'zod';
import { storageKeys } from '../../../storage/index.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { definitionZipUploadInput } from './task_resources_schemas.ts';
import { storeDefinitionZip } from './task_resources_zip.ts';

export const uploadTaskAssessmentResources = unitMutation(definitionZipUploadInput, {
  action: 'add_task_def',
  refused: 'Not authorised to upload tasks of unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_assessment_resources',
      tags: ['Task definitions'],
      summary: "Upload or replace a task definition's assessment resources (zip)",
      description:
        'The zip the automated assessment runs with (`build.sh`, `run.sh`). Multipart field `file`, checked as for `task_resources` (a zip by content, ' +
        'no entry name that unpacks outside its folder; 403 otherwise). Answers `true` (201); afterwards `has_task_assessment_resources` is true. Unit Convenor or Admin.',
    },
    rest: { upload: {}, status: 201 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    await storeDefinitionZip(ctx.storage, storageKeys.taskAssessmentResources(definition.id), input.file.path);
    return true as const;
  });
