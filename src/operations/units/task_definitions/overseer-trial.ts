// The convenor tries a definition's automated assessment with their own files (behaviour.md §6,
// last bullet): they get a project in the unit if they have none, and submit to it as a student.
import type { Config } from '../../../config.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import type { Storage } from '../../../storage/index.ts';
import { assessmentSetup } from '../../assessment/queue.ts';
import { forbidden } from '../../../lib/errors.ts';
import { enrolProjects } from '../../projects/enrol-projects.ts';
import { findTaskDefinition } from './find-task-definition.ts';
import { Project, Task, TaskDefinition, type IProject, type ITaskDefinition, type IUnit } from '../../../../schema/index.ts';
import { canInProject, roleInProject, type ProjectRole } from '../../../policy/index.ts';
import type { UpdatedTaskOut } from '../../projects/task_def_id/load-updated-task.ts';
import { submitWork, type UploadServices, type WorkUpload } from '../../projects/task_def_id/submission/submit-work.ts';

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

/**
 * Submits the trial's files as the caller's own upload to their project: the same checks and
 * effects as the student's upload (submitWork), with the caller's role on that project.
 */
export async function submitOverseerTrial(
  em: Em,
  services: UploadServices,
  userId: number,
  trial: { projectId: number; definitionId: number },
  upload: WorkUpload,
): Promise<UpdatedTaskOut> {
  const project = (await em.findOneOrFail(Project, { id: trial.projectId }, { populate: ['unit'] })) as IProject;
  const unit = project.unit as unknown as IUnit;
  const definition = (await em.findOneOrFail(TaskDefinition, { id: trial.definitionId })) as ITaskDefinition;
  const role = await roleInProject(em, { id: userId }, { userId, unitId: unit.id });
  if (!canInProject(role, 'make_submission', unit)) throw forbidden(`Not authorised to submit task '${definition.name}'`);
  const task = await em.findOne(Task, { project: project.id, taskDefinition: definition.id }, { fields: ['id'] });
  return submitWork(em, services, { userId, role: role as ProjectRole, unit, project, definition, taskId: task ? task.id : null }, upload);
}
