import { z } from 'zod';
import { idField } from '../../trpc/fields.ts';

export const eulaAcceptInput = z.object({ id: idField() });
