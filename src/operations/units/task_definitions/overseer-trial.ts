// The convenor tries a definition's automated assessment with their own files (behaviour.md §6,
// last bullet): they get a project in the unit if they have none, and submit to it as a student.
import type { Config } from '../../../config.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import type { Storage } from '../../../storage/index.ts';
import { assessmentSetup } from '../../assessment/queue.ts';
import { forbidden } from '../../../trpc/errors.ts';
// Still a procedure folder's helper: the projects area moves it to src/operations.
import { enrolProjects } from '../../../routers/projects/operations.ts';
import { findTaskDefinition } from './find-task-definition.ts';

export const NOT_ENABLED = 'Overseer is not enabled';

/**
 * Where the trial's files go: the caller's project in the unit (enrolled on the first campus when
 * they had none) and the definition. `NOT_ENABLED` with Overseer off; 403 when the definition is
 * not set up for assessment (no image, no assessment resources, assessment off).
 */
export async function prepareOverseerTrial(
  em: Em,
  storage: Storage,
  config: Pick<Config, 'overseerEnabled'>,
  unitId: number,
  definitionId: number,
  userId: number,
): Promise<{ projectId: number; definitionId: number } | typeof NOT_ENABLED> {
  if (!config.overseerEnabled) return NOT_ENABLED;
  const definition = await findTaskDefinition(em, unitId, definitionId);
  const setup = await assessmentSetup(em, storage, config, definition.id);
  if ('off' in setup) throw forbidden(setup.off);
  const campus = await db(em).selectFrom('campuses').select('id').orderBy('id').executeTakeFirst();
  const [{ projectId }] = await enrolProjects(em, unitId, [{ userId, campusId: campus?.id ?? null }]);
  return { projectId, definitionId: definition.id };
}
