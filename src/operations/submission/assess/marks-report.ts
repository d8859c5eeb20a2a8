// What an upload of marks reports back, row by row: the shape applyMarks returns and the
// procedure's output schema.
import { z } from 'zod';

/** A row of marks.csv (its cells by lower-cased header) or, for a PDF, `{file: <entry name>}`. */
const reported = z.object({ row: z.record(z.string(), z.string()), message: z.string() });

export const assessUploadOut = z.object({
  message: z.string().describe('What was done, in a sentence'),
  success: z.array(reported),
  ignored: z.array(reported),
  errors: z.array(reported),
});
export type AssessUploadOut = z.infer<typeof assessUploadOut>;
