import { z } from 'zod';
import { formBool, formString, preprocess } from '../../../../trpc/fields.ts';
import { taskIds } from '../schemas.ts';

/** All of a submission's files together: ten full-size files and their multipart framing. */
export const SUBMISSION_UPLOAD_BYTES = 101_000_000;

/** A field a multipart form carries as JSON text (the web client stringifies objects); a JSON body sends it as is. */
const jsonField = <T extends z.ZodType>(schema: T) =>
  preprocess((v) => {
    if (typeof v !== 'string') return v;
    if (v.trim() === '') return undefined;
    try {
      return JSON.parse(v);
    } catch {
      return v; // refused by the schema, naming the field
    }
  }, schema.optional());

const number = () => preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().finite());

export const contributionsField = jsonField(
  z.array(z.object({ project_id: number().pipe(z.number().int().positive()), pct: number(), pts: number() })),
).describe("Group tasks: JSON `[{project_id, pct, pts}]`, each member's share (default: equal shares and 3 points)");

export const alignmentField = jsonField(
  z.array(
    z.object({
      ilo_id: number().pipe(z.number().int().positive()),
      rating: number().pipe(z.number().int().min(1, { message: 'must be 1 to 5' }).max(5, { message: 'must be 1 to 5' })),
      rationale: z.string().nullish(),
    }),
  ),
).describe(
  "JSON `[{ilo_id, rating, rationale}]`: the student's own alignment of this task with the unit's learning outcomes (ratings 1-5), replacing the previous one",
);

/** The upload: fixed fields, and one file per upload requirement under the requirement's key (`file0`, `file1`, ...). */
export const uploadInput = z
  .object({
    ...taskIds,
    trigger: formString().optional().describe('`need_help` asks for help with the work; anything else (or nothing) hands it in'),
    contributions: contributionsField,
    alignment_data: alignmentField,
    accepted_tii_eula: formBool().optional().describe('Accepted and ignored (no similarity service yet)'),
  })
  .catchall(
    z
      .unknown()
      .meta({ type: 'string', format: 'binary', description: "One file per upload requirement, under the requirement's `key` (`file0`, `file1`, ...)" }),
  );

export const downloadInput = z.object({ ...taskIds, as_attachment: formBool().optional().default(false) });

export const taskOnlyInput = z.object(taskIds);

export { regenerateOut, type RegenerateOut } from '../../../../operations/projects/task_def_id/submission/regenerate-pdf.ts';
