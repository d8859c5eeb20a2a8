// Enrolling a student's project in a tutorial and taking it out: plain functions, so the CSV
// enrolment import and the seed script follow the same rules as the REST operations.
import { Tutorial, TutorialEnrolment, type ITutorial } from '../../../../../schema/index.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { isFull, planEnrolment } from '../../../../domain/tutorial-enrolments.ts';
import { badRequest, forbidden } from '../../../../lib/errors.ts';
import { enrolledStudents } from '../../../tutorials/change-tutorials.ts';

export interface EnrolmentOut {
  project_id: number;
  tutorial_id: number;
}

/** Every tutorial enrolment of a project, in the order they were made. */
export async function enrolmentsOf(em: Em, projectId: number): Promise<EnrolmentOut[]> {
  return db(em).selectFrom('tutorial_enrolments').select(['project_id', 'tutorial_id']).where('project_id', '=', projectId).orderBy('id').execute();
}

/** The unit's tutorial with this abbreviation; an unknown one is refused (403), as the original does. */
export async function tutorialByAbbreviation(em: Em, unitId: number, abbreviation: string): Promise<ITutorial> {
  const tutorial = await em.findOne(Tutorial, { unit: unitId, abbreviation });
  if (!tutorial) throw forbidden(`No tutorial with abbreviation ${abbreviation} exists for the unit`);
  return tutorial;
}

export const tutorialFull = (abbreviation: string) => `Tutorial ${abbreviation} is full and cannot accept further student enrolments`;

/**
 * A student leaving these tutorials leaves the groups there whose set keeps groups in one class,
 * when the set lets students manage groups; otherwise the move is refused (400).
 */
async function leaveGroupsTiedTo(em: Em, projectId: number, tutorialIds: number[]): Promise<void> {
  if (tutorialIds.length === 0) return;
  const tied = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('groups as g', 'g.id', 'm.group_id')
    .innerJoin('group_sets as s', 's.id', 'g.group_set_id')
    .innerJoin('tutorials as t', 't.id', 'g.tutorial_id')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['m.id', 's.allow_students_to_manage_groups as may_leave', 't.abbreviation', 'u.first_name', 'u.last_name'])
    .where('m.project_id', '=', projectId)
    .where('m.active', '=', true)
    .where('s.keep_groups_in_same_class', '=', true)
    .where('g.tutorial_id', 'in', tutorialIds)
    .execute();
  const stuck = tied.find((m) => !m.may_leave);
  if (stuck) throw badRequest(`Validation failed: Groups require ${stuck.first_name} ${stuck.last_name} to be in tutorial ${stuck.abbreviation}`);
  if (tied.length > 0) {
    await db(em)
      .updateTable('group_memberships')
      .set({ active: false })
      .where(
        'id',
        'in',
        tied.map((m) => m.id),
      )
      .execute();
  }
}

/**
 * Enrols a project in a tutorial of its unit, replacing the enrolment in the same stream (see
 * planEnrolment), and answers all of the project's enrolments. A full tutorial refuses (403)
 * unless the caller may exceed capacity; a tutorial on another campus than the project's is a 400.
 */
export async function enrolInTutorial(em: Em, input: { projectId: number; tutorialId: number; mayExceedCapacity: boolean }): Promise<EnrolmentOut[]> {
  // Locks the tutorial until the transaction ends, so two students cannot take its last seat.
  const tutorial = await db(em)
    .selectFrom('tutorials')
    .select(['id', 'abbreviation', 'capacity', 'campus_id', 'tutorial_stream_id'])
    .where('id', '=', input.tutorialId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const current = await db(em)
    .selectFrom('tutorial_enrolments as e')
    .innerJoin('tutorials as t', 't.id', 'e.tutorial_id')
    .select(['e.id', 'e.tutorial_id as tutorialId', 't.tutorial_stream_id as streamId'])
    .where('e.project_id', '=', input.projectId)
    .orderBy('e.id')
    .execute();
  const plan = planEnrolment(current, { id: tutorial.id, streamId: tutorial.tutorial_stream_id });
  if (plan.kind === 'unchanged') return enrolmentsOf(em, input.projectId);

  if (!input.mayExceedCapacity) {
    if (isFull(tutorial.capacity, await enrolledStudents(em, tutorial.id))) throw forbidden(tutorialFull(tutorial.abbreviation));
  }
  const project = await db(em).selectFrom('projects').select('campus_id').where('id', '=', input.projectId).executeTakeFirstOrThrow();
  if (project.campus_id !== null && tutorial.campus_id !== null && project.campus_id !== tutorial.campus_id) {
    throw badRequest('Validation failed: Project and tutorial belong to different campus');
  }

  if (plan.kind === 'move') {
    await leaveGroupsTiedTo(em, input.projectId, [plan.fromTutorialId]);
    await em.nativeUpdate(TutorialEnrolment, { id: plan.enrolmentId }, { tutorial: tutorial.id });
  } else {
    if (plan.kind === 'replace_all') {
      await leaveGroupsTiedTo(em, input.projectId, plan.fromTutorialIds);
      await em.nativeDelete(TutorialEnrolment, { project: input.projectId });
    }
    await em.insert(TutorialEnrolment, { project: input.projectId, tutorial: tutorial.id, createdAt: new Date() });
  }
  return enrolmentsOf(em, input.projectId);
}

/** Takes a project out of a tutorial (403 when it is not in it), leaving the groups tied to it as above. */
export async function leaveTutorial(em: Em, input: { projectId: number; tutorialId: number }): Promise<void> {
  const enrolment = await em.findOne(TutorialEnrolment, { project: input.projectId, tutorial: input.tutorialId });
  if (!enrolment) throw forbidden('Project not enrolled in the selected tutorial');
  await leaveGroupsTiedTo(em, input.projectId, [input.tutorialId]);
  await em.nativeDelete(TutorialEnrolment, { id: enrolment.id });
}
