import type { Em } from '../../db/orm.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { requireSimcheckEnabled } from '../similarity/enabled.ts';
import { acceptCurrentEula, type SimcheckServices } from '../similarity/simcheck.ts';
import { forbidden } from '../../lib/errors.ts';

/** Records that `userId` accepted the current agreement and queues telling the service; answers the action's id as text. */
export async function acceptEula(services: SimcheckServices & { em: Em; jobs: JobQueue }, userId: number): Promise<string> {
  requireSimcheckEnabled(services.config);
  const action = await acceptCurrentEula(services.em, services, userId);
  if (!action) throw forbidden('The similarity-check EULA is not available at the moment; please try again later');
  await services.jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
  return String(action.id);
}
