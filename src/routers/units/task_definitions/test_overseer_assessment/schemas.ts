import { z } from 'zod';
import { idField } from '../../../../trpc/fields.ts';

export const overseerTrialInput = z
  .object({ unit_id: idField(), task_def_id: idField() })
  .catchall(z.unknown().meta({ type: 'string', format: 'binary', description: "One file per upload requirement, under the requirement's `key`" }));
