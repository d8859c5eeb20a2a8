// The procedures on a definition's stored files (task sheet, task resources, assessment
// resources): upload, download and remove are the same three operations for each, told apart by
// the file's kind, its path segment and its documentation.
import { z } from 'zod';
import {
  deleteDefinitionFile,
  openDefinitionFile,
  storeDefinitionFile,
  type DefinitionFileKind,
} from '../../../operations/units/task_definitions/definition-files.ts';
import type { UnitAction } from '../../../policy/index.ts';
import type { RestMeta } from '../../../trpc/core.ts';
import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation, unitQuery } from '../../../trpc/scopes/index.ts';
import { definitionFileInput, definitionFileUploadInput } from './schemas.ts';

const TAG = 'Task definitions';
const path = (segment: string) => `/api/units/{unit_id}/task_definitions/{task_def_id}/${segment}` as const;

interface Documented {
  refused: string;
  summary: string;
  description: string;
}

/** POST .../{segment}: multipart field `file`, checked for its kind before it replaces the stored one. */
export function uploadDefinitionFile(
  segment: string,
  kind: DefinitionFileKind,
  doc: Documented & { status: 200 | 201; upload?: RestMeta['upload']; errors?: number[] },
) {
  return unitMutation(definitionFileUploadInput, { action: 'add_task_def', refused: doc.refused })
    .meta(
      route('POST', path(segment), TAG, doc.summary, {
        description: doc.description,
        rest: { upload: doc.upload ?? {}, status: doc.status, ...(doc.errors && { errors: doc.errors }) },
      }),
    )
    .output(z.literal(true))
    .mutation(({ ctx, input }) => storeDefinitionFile(ctx, ctx.unit.id, input.task_def_id, kind, input.file));
}

/** DELETE .../{segment}: removes the stored file; none there is not an error. */
export function deleteDefinitionFileProcedure(segment: string, kind: DefinitionFileKind, doc: Documented & { status: 200 | 204 }) {
  return unitMutation(definitionFileInput, { action: 'add_task_def', refused: doc.refused })
    .meta(route('DELETE', path(segment), TAG, doc.summary, { description: doc.description, rest: { status: doc.status } }))
    .output(z.literal(true))
    .mutation(({ ctx, input }) => deleteDefinitionFile(ctx.em, ctx.storage, ctx.unit.id, input.task_def_id, kind));
}

/** GET .../{segment}: the stored file, or the placeholder PDF. `as_attachment` when the input has it, else always an attachment. */
export function downloadDefinitionFile<S extends z.ZodType<{ unit_id: number; task_def_id: number; as_attachment?: boolean }>>(
  input: S,
  segment: string,
  kind: DefinitionFileKind,
  doc: Documented & { action: UnitAction; mediaType: string },
) {
  return unitQuery(input, { action: doc.action, refused: doc.refused })
    .meta(route('GET', path(segment), TAG, doc.summary, { description: doc.description, rest: { file: true } }))
    .output(fileResult().meta({ contentMediaType: doc.mediaType }))
    .query(({ ctx, input }) => {
      const { task_def_id, as_attachment } = input as z.output<S>;
      return openDefinitionFile(ctx.em, ctx.storage, ctx.unit, task_def_id, kind, as_attachment ?? true);
    });
}
