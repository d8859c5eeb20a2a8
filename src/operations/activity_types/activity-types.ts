import { ActivityType, TutorialStream, type IActivityType } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { badRequest } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';

/** Every activity type, by id. */
export async function listActivityTypes(em: Em): Promise<IActivityType[]> {
  return em.find(ActivityType, {}, { orderBy: { id: 'asc' } });
}

/** Deletes an activity type no tutorial stream names (the foreign key would refuse too, but this says why). */
export async function deleteActivityType(em: Em, id: number): Promise<void> {
  const activityType = await findOr404(em, ActivityType, id);
  if ((await em.count(TutorialStream, { activityType: activityType.id })) > 0) {
    throw badRequest('Cannot delete an activity type that is used by tutorial streams');
  }
  em.remove(activityType);
  await em.flush();
}

export interface ActivityTypeFields {
  name: string;
  abbreviation: string;
}

/** Creates an activity type; a duplicate name or abbreviation hits a unique index and becomes a 400. */
export async function createActivityType(em: Em, fields: ActivityTypeFields): Promise<IActivityType> {
  const activityType = em.create(ActivityType, fields);
  await em.flush();
  return activityType;
}

/** Changes the fields given (the web client sends only the changed ones); 404 for an unknown id. */
export async function updateActivityType(em: Em, id: number, fields: Partial<ActivityTypeFields>): Promise<IActivityType> {
  const activityType = await findOr404(em, ActivityType, id);
  em.assign(activityType, fields);
  await em.flush();
  return activityType;
}
