// Creating, changing and deleting tutorials: plain functions, so CSV imports (groups, enrolments)
// and the seed script make tutorials with the same rules as the REST operations.
import { Campus, Group, Tutorial, TutorialEnrolment, UnitRole, User, type ITutorial } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { badRequest } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';
import { findStream } from '../units/tutorial_streams/change-streams.ts';

export const TUTOR_NOT_STAFF = "Validation failed: Tutor must be a member of the unit's staff";
export const ABBREVIATION_TAKEN = 'Validation failed: Abbreviation must be unique within the unit';

export interface TutorialFields {
  /** The tutor's user id; they must be staff (Tutor or Convenor) of the unit. */
  tutorUserId?: number;
  /** null: no campus. */
  campusId?: number | null;
  /** null: no stream. */
  streamAbbr?: string | null;
  capacity?: number;
  abbreviation?: string;
  meetingDay?: string;
  meetingTime?: string;
  meetingLocation?: string;
}

const idOf = (ref: unknown) => (ref as { id: number }).id;

async function tutorRole(em: Em, unitId: number, userId: number) {
  await findOr404(em, User, userId);
  const role = await em.findOne(UnitRole, { unit: unitId, user: userId });
  if (!role) throw badRequest(TUTOR_NOT_STAFF);
  return role;
}

async function ensureAbbreviationFree(em: Em, unitId: number, abbreviation: string, except?: number) {
  const taken = await em.count(Tutorial, { unit: unitId, abbreviation, ...(except ? { id: { $ne: except } } : {}) });
  if (taken) throw badRequest(ABBREVIATION_TAKEN);
}

export async function createTutorial(
  em: Em,
  unitId: number,
  fields: Required<Pick<TutorialFields, 'tutorUserId' | 'capacity' | 'abbreviation' | 'meetingDay' | 'meetingTime' | 'meetingLocation'>> & TutorialFields,
): Promise<ITutorial> {
  const tutor = await tutorRole(em, unitId, fields.tutorUserId);
  const campus = fields.campusId ? await findOr404(em, Campus, fields.campusId) : null;
  const stream = fields.streamAbbr ? await findStream(em, unitId, fields.streamAbbr) : null;
  await ensureAbbreviationFree(em, unitId, fields.abbreviation);
  const tutorial = em.create(Tutorial, {
    unit: unitId,
    tutor,
    campus,
    tutorialStream: stream,
    capacity: fields.capacity,
    abbreviation: fields.abbreviation,
    meetingDay: fields.meetingDay,
    meetingTime: fields.meetingTime,
    meetingLocation: fields.meetingLocation,
  });
  await em.flush();
  return tutorial;
}

/** Changes the fields given. A tutorial with enrolments keeps its stream, since each enrolment belongs to one. */
export async function updateTutorial(em: Em, tutorial: ITutorial, fields: TutorialFields): Promise<void> {
  const unitId = idOf(tutorial.unit);
  if (fields.tutorUserId !== undefined) tutorial.tutor = await tutorRole(em, unitId, fields.tutorUserId);
  if (fields.campusId !== undefined) tutorial.campus = fields.campusId === null ? null : await findOr404(em, Campus, fields.campusId);
  if (fields.streamAbbr !== undefined) {
    const stream = fields.streamAbbr === null ? null : await findStream(em, unitId, fields.streamAbbr);
    const current = tutorial.tutorialStream ? idOf(tutorial.tutorialStream) : null;
    if ((stream?.id ?? null) !== current) {
      if (await em.count(TutorialEnrolment, { tutorial: tutorial.id })) throw badRequest('Cannot change the stream of a tutorial with enrolments');
      tutorial.tutorialStream = stream;
    }
  }
  if (fields.abbreviation !== undefined && fields.abbreviation !== tutorial.abbreviation) {
    await ensureAbbreviationFree(em, unitId, fields.abbreviation, tutorial.id);
    tutorial.abbreviation = fields.abbreviation;
  }
  if (fields.capacity !== undefined) tutorial.capacity = fields.capacity;
  if (fields.meetingDay !== undefined) tutorial.meetingDay = fields.meetingDay;
  if (fields.meetingTime !== undefined) tutorial.meetingTime = fields.meetingTime;
  if (fields.meetingLocation !== undefined) tutorial.meetingLocation = fields.meetingLocation;
  await em.flush();
}

/** How many enrolled (not withdrawn) students a tutorial holds: what its capacity counts. */
export async function enrolledStudents(em: Em, tutorialId: number): Promise<number> {
  const { n } = await db(em)
    .selectFrom('tutorial_enrolments as e')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .where('e.tutorial_id', '=', tutorialId)
    .where('p.enrolled', '=', true)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Deletes a tutorial that has no enrolled students and no groups (400 otherwise); withdrawn students' enrolments go with it. */
export async function deleteTutorial(em: Em, tutorial: ITutorial): Promise<void> {
  if ((await enrolledStudents(em, tutorial.id)) > 0) throw badRequest('Cannot delete tutorial with enrolments');
  if (await em.count(Group, { tutorial: tutorial.id })) throw badRequest('Cannot delete tutorial with groups');
  await em.nativeDelete(Tutorial, { id: tutorial.id });
}
