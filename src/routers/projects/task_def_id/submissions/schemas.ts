import { z } from 'zod';
import { taskIds } from '../schemas.ts';

export { taskOnlyInput } from '../submission/schemas.ts';

export const timestampInput = z.object({
  ...taskIds,
  timestamp: z.string().describe("The submission's time, ISO 8601 (URL-encoded), as `submissions/timestamps` lists it"),
});
