// A unit's tutorial streams: plain functions, so rollover and the seed script make streams with
// the same naming and rules as the REST operations.
import { ActivityType, TaskDefinition, TutorialStream, type ITutorialStream } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { nextStreamNaming, STREAM_HAS_TASK_DEFINITIONS, taskDefinitionsOnStreamDeletion } from '../../../domain/tutorial-streams.ts';
import { badRequest, forbidden, notFound } from '../../../lib/errors.ts';

const UNKNOWN_STREAM = 'Unable to find requested Tutorial Stream';
const UNKNOWN_ACTIVITY_TYPE = 'Unable to find requested Activity Type';

/** The unit's stream with this abbreviation, or 404. */
export async function findStream(em: Em, unitId: number, abbreviation: string): Promise<ITutorialStream> {
  const stream = await em.findOne(TutorialStream, { unit: unitId, abbreviation });
  if (!stream) throw notFound(UNKNOWN_STREAM);
  return stream;
}

async function activityTypeByAbbreviation(em: Em, abbreviation: string) {
  const type = await em.findOne(ActivityType, { abbreviation });
  if (!type) throw notFound(UNKNOWN_ACTIVITY_TYPE);
  return type;
}

/**
 * Adds a stream of an activity type, named and abbreviated after it with the next free number.
 * The unit's first stream takes every task definition the unit already has.
 */
export async function addTutorialStream(em: Em, input: { unitId: number; activityTypeAbbr: string }): Promise<ITutorialStream> {
  const type = await activityTypeByAbbreviation(em, input.activityTypeAbbr);
  const existing = await em.find(TutorialStream, { unit: input.unitId });
  const naming = nextStreamNaming(type, existing);
  const stream = em.create(TutorialStream, { unit: input.unitId, activityType: type, ...naming });
  await em.flush();
  if (existing.length === 0) await em.nativeUpdate(TaskDefinition, { unit: input.unitId }, { tutorialStream: stream.id });
  return stream;
}

/** Renames a stream or changes its activity type; names and abbreviations stay unique in the unit. */
export async function updateTutorialStream(
  em: Em,
  stream: ITutorialStream,
  changes: { name?: string; abbreviation?: string; activityTypeAbbr?: string },
): Promise<void> {
  const unitId = (stream.unit as unknown as { id: number }).id;
  for (const field of ['name', 'abbreviation'] as const) {
    const value = changes[field];
    if (value === undefined || value === stream[field]) continue;
    if (await em.count(TutorialStream, { unit: unitId, [field]: value, id: { $ne: stream.id } })) {
      throw badRequest(`Validation failed: ${field === 'name' ? 'Name' : 'Abbreviation'} ${value} already exists in this unit`);
    }
    stream[field] = value;
  }
  if (changes.activityTypeAbbr !== undefined) stream.activityType = await activityTypeByAbbreviation(em, changes.activityTypeAbbr);
  await em.flush();
}

/**
 * Deletes a stream with its tutorials. Tutorials with enrolled students or groups keep it (400).
 * Its task definitions move to the unit's other stream when there are two, lose their stream when
 * it is the only one, and keep it from being deleted when there are more (403).
 */
export async function deleteTutorialStream(em: Em, stream: ITutorialStream): Promise<void> {
  const unitId = (stream.unit as unknown as { id: number }).id;
  const blocked = await db(em)
    .selectFrom('tutorials as t')
    .select([
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('tutorial_enrolments as e')
              .innerJoin('projects as p', 'p.id', 'e.project_id')
              .whereRef('e.tutorial_id', '=', 't.id')
              .where('p.enrolled', '=', true)
              .select('e.id'),
          )
          .as('has_students'),
      (eb) => eb.exists(eb.selectFrom('groups as g').whereRef('g.tutorial_id', '=', 't.id').select('g.id')).as('has_groups'),
    ])
    .where('t.tutorial_stream_id', '=', stream.id)
    .execute();
  if (blocked.some((t) => t.has_students)) throw badRequest('Cannot delete tutorial with enrolments');
  if (blocked.some((t) => t.has_groups)) throw badRequest('Cannot delete tutorial with groups');

  if (await em.count(TaskDefinition, { tutorialStream: stream.id })) {
    const streams = await em.find(TutorialStream, { unit: unitId }, { orderBy: { id: 'asc' } });
    const plan = taskDefinitionsOnStreamDeletion(streams.length);
    if (plan === 'refuse') throw forbidden(STREAM_HAS_TASK_DEFINITIONS);
    const other = plan === 'move_to_other' ? streams.find((s) => s.id !== stream.id)!.id : null;
    await em.nativeUpdate(TaskDefinition, { tutorialStream: stream.id }, { tutorialStream: other });
  }
  // Its tutorials (and the enrolments of withdrawn students in them) go with it: the foreign keys cascade.
  await em.nativeDelete(TutorialStream, { id: stream.id });
}
