import { z } from 'zod';
import { TASK_STATUSES } from '../../../../domain/vocabulary.ts';
import { idField, preprocess } from '../../../../trpc/fields.ts';

export { prerequisiteOut } from '../../../../operations/units/task_definitions/prerequisites/prerequisite-out.ts';

export const prerequisitesPath = z.object({ unit_id: idField(), task_def_id: idField() });

export const createPrerequisiteInput = prerequisitesPath.extend({
  prerequisite_id: idField().meta({ description: 'Another task definition of the same unit' }),
  task_status: preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.enum(TASK_STATUSES)).meta({
    description: 'The status key the prerequisite’s task must reach (docs/prerequisites.md), e.g. `complete`',
  }),
});

export const deletePrerequisiteInput = prerequisitesPath.extend({ id: idField() });
