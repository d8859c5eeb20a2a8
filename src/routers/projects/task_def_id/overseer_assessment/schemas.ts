import { z } from 'zod';
import { idField } from '../../../../trpc/fields.ts';
import { taskIds } from '../schemas.ts';

export const triggerAssessmentInput = z.object({ ...taskIds, oa_id: idField() });

export const triggeredOut = z.object({ message: z.string() });
