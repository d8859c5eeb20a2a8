// Unit rollover (behaviour.md §7.4): a copy of a unit for a new teaching period or new dates, made
// before the period starts. Used by POST /api/units/{id}/rollover and by the teaching period's
// rollover of all its units.
import { copyTemplates } from './feedback_templates/copy-templates.ts';
import { copyRubrics } from './task_definitions/rubric/copy-rubrics.ts';
import { copySteps } from './task_definitions/overseer_steps/copy-steps.ts';
import { copyPrompts } from '../task_definitions/discussion_prompts/copy-prompts.ts';
import { copyPrerequisites } from './task_definitions/prerequisites/copy-prerequisites.ts';
import {
  GroupSet,
  LearningAlignment,
  LearningOutcome,
  TaskDefinition,
  TeachingPeriod,
  TutorialStream,
  Unit,
  UnitRole,
  type IUnit,
} from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import { refIdOrNull } from '../../db/refs.ts';
import type { Em } from '../../db/orm.ts';
import { toDay } from '../../domain/dates.ts';
import { sameWeekAndDay, type PeriodCalendar } from '../../domain/weeks.ts';
import { copyDefinitionFilesForRollover, type Storage } from '../../storage/index.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { copyTaskDefinition } from './task_definitions/copy-task-definition.ts';
import { copyScormPackagesForRollover } from './task_definitions/scorm-package.ts';
import { assertCodeFree } from './unit-checks.ts';
import { ROLE, roleInUnit } from '../../policy/index.ts';
import type { SystemRole } from '../../../schema/enums.ts';
import { unitDetail } from './unit-detail.ts';

/** Where the copy goes: a teaching period, or dates of its own. */
export type RolloverTarget = { teachingPeriodId: number } | { startDate: string; endDate: string };

/** A period's calendar (its first day and its breaks), in one query. */
export async function periodCalendar(em: Em, periodId: number): Promise<{ calendar: PeriodCalendar; startDate: string; endDate: string }> {
  const period = await em.findOne(TeachingPeriod, { id: periodId });
  if (!period) throw notFound('Unable to find requested Teaching period');
  const breaks = await db(em).selectFrom('breaks').select(['start_date', 'number_of_weeks']).where('teaching_period_id', '=', periodId).execute();
  const startDate = toDay(period.startDate);
  return {
    calendar: { startDate, breaks: breaks.map((b) => ({ startDate: b.start_date, numberOfWeeks: b.number_of_weeks })) },
    startDate,
    endDate: toDay(period.endDate),
  };
}

/** A unit's own calendar: its period's, or its own start date with no breaks. */
export async function unitCalendar(em: Em, unit: IUnit): Promise<PeriodCalendar> {
  const periodId = refIdOrNull(unit.teachingPeriod);
  if (periodId !== null) return (await periodCalendar(em, periodId)).calendar;
  return { startDate: unit.startDate, breaks: [] };
}

/**
 * Copies the unit: its settings, its main convenor (the only staff copied), streams, group sets
 * (without groups), outcomes, task definitions with every date at the same week and weekday of
 * the new period, the draft task definition, the unit-level outcome alignments, the feedback
 * templates and the definitions' rubrics (without marks). No tutorials, enrolments, tasks or
 * groups. The definitions' task sheets and resources are copied in storage (not their
 * assessment resources).
 */
export async function rolloverUnit(em: Em, source: IUnit, target: RolloverTarget, storage: Storage): Promise<IUnit> {
  const from = await unitCalendar(em, source);
  let to: PeriodCalendar;
  let periodId: number | null = null;
  let startDate: string;
  let endDate: string;
  if ('teachingPeriodId' in target) {
    const period = await periodCalendar(em, target.teachingPeriodId);
    periodId = target.teachingPeriodId;
    ({ calendar: to, startDate, endDate } = period);
  } else {
    ({ startDate, endDate } = target);
    to = { startDate, breaks: [] };
  }
  await assertCodeFree(em, source.code, periodId);
  const move = (day: string) => sameWeekAndDay(from, to, day);

  let portfolio = source.portfolioAutoGenerationDate ? move(source.portfolioAutoGenerationDate) : null;
  if (portfolio !== null && !(portfolio > startDate && portfolio <= endDate)) portfolio = null;

  const unit = em.create(Unit, {
    code: source.code,
    name: source.name,
    description: source.description,
    teachingPeriod: periodId,
    startDate,
    endDate,
    active: source.active,
    overseerImage: refIdOrNull(source.overseerImage),
    assessmentEnabled: source.assessmentEnabled,
    autoApplyExtensionBeforeDeadline: source.autoApplyExtensionBeforeDeadline,
    sendNotifications: source.sendNotifications,
    enableSyncEnrolments: source.enableSyncEnrolments,
    enableSyncTimetable: source.enableSyncTimetable,
    allowStudentExtensionRequests: source.allowStudentExtensionRequests,
    allowStudentChangeTutorial: source.allowStudentChangeTutorial,
    requireFeedbackComment: source.requireFeedbackComment,
    extensionWeeksOnResubmitRequest: source.extensionWeeksOnResubmitRequest,
    discussTimeoutEnabled: source.discussTimeoutEnabled,
    discussTimeoutWarningDays: source.discussTimeoutWarningDays,
    discussTimeoutExpireDays: source.discussTimeoutExpireDays,
    portfolioAutoGenerationDate: portfolio,
  });
  await em.flush();

  const q = db(em);
  const [mainConvenor, streams, groupSets, outcomes, definitions, alignments] = await Promise.all([
    refIdOrNull(source.mainConvenor) === null
      ? undefined
      : q.selectFrom('unit_roles').select('user_id').where('id', '=', refIdOrNull(source.mainConvenor)!).executeTakeFirst(),
    q.selectFrom('tutorial_streams').selectAll().where('unit_id', '=', source.id).orderBy('id').execute(),
    q.selectFrom('group_sets').selectAll().where('unit_id', '=', source.id).orderBy('id').execute(),
    q.selectFrom('learning_outcomes').selectAll().where('unit_id', '=', source.id).orderBy('ilo_number').execute(),
    em.find(TaskDefinition, { unit: source.id }, { orderBy: { id: 'asc' } }),
    q
      .selectFrom('learning_alignments as a')
      .innerJoin('task_definitions as d', 'd.id', 'a.task_definition_id')
      .select(['a.task_definition_id', 'a.learning_outcome_id', 'a.rating', 'a.description'])
      .where('d.unit_id', '=', source.id)
      .where('a.task_id', 'is', null)
      .orderBy('a.id')
      .execute(),
  ]);

  if (mainConvenor) {
    const role = em.create(UnitRole, { user: mainConvenor.user_id, unit: unit.id, role: ROLE.convenor });
    await em.flush();
    unit.mainConvenor = role as never;
  }
  for (const s of streams) em.create(TutorialStream, { unit: unit.id, activityType: s.activity_type_id, name: s.name, abbreviation: s.abbreviation });
  for (const g of groupSets) {
    em.create(GroupSet, {
      unit: unit.id,
      name: g.name,
      allowStudentsToCreateGroups: g.allow_students_to_create_groups,
      allowStudentsToManageGroups: g.allow_students_to_manage_groups,
      keepGroupsInSameClass: g.keep_groups_in_same_class,
      capacity: g.capacity,
      locked: g.locked,
    });
  }
  const newOutcome = new Map<number, { id: number }>();
  for (const o of outcomes) {
    newOutcome.set(
      o.id,
      em.create(LearningOutcome, { unit: unit.id, iloNumber: o.ilo_number, abbreviation: o.abbreviation, name: o.name, description: o.description }) as never,
    );
  }
  await em.flush();

  // Streams and group sets exist now, so each definition finds its own by abbreviation and name.
  const newDefinition = new Map<number, number>();
  for (const td of definitions) {
    const copy = await copyTaskDefinition(em, td, unit, {
      startDate: move(td.startDate),
      targetDate: move(td.targetDate),
      dueDate: td.dueDate ? move(td.dueDate) : null,
    });
    newDefinition.set(td.id, copy.id);
  }
  for (const a of alignments) {
    const outcome = newOutcome.get(a.learning_outcome_id);
    const definition = newDefinition.get(a.task_definition_id);
    if (outcome && definition)
      em.create(LearningAlignment, { taskDefinition: definition, learningOutcome: outcome.id, rating: a.rating, description: a.description });
  }
  const now = new Date();
  await copyTemplates(em, source.id, unit.id, newDefinition, now);
  await copyRubrics(em, newDefinition, now);
  await copySteps(em, newDefinition, now);
  await copyPrompts(em, newDefinition, now);
  await copyPrerequisites(em, newDefinition, now);
  const draft = refIdOrNull(source.draftTaskDefinition);
  if (draft !== null && newDefinition.has(draft)) unit.draftTaskDefinition = newDefinition.get(draft) as never;
  await em.flush();
  // Last, once every row is written: task sheets and resources (reference §7.4), under the new ids.
  await Promise.all([...newDefinition].map(([from, to]) => copyDefinitionFilesForRollover(storage, from, to)));
  // Online tests' packages too, with what was recorded of them (docs/online-tests.md, "Settings").
  const withPackage = definitions.filter((td) => td.scormVersion != null).map((td) => td.id);
  await copyScormPackagesForRollover(em, storage, newDefinition, withPackage);
  return unit;
}

/** The target as POST /api/units/{id}/rollover names it: a teaching period, or both dates (400 otherwise). */
export function rolloverTarget(input: { teaching_period_id?: number; start_date?: string; end_date?: string }): RolloverTarget {
  const hasDates = input.start_date !== undefined || input.end_date !== undefined;
  if (input.teaching_period_id !== undefined) {
    if (hasDates) throw badRequest('teaching_period_id, start_date are mutually exclusive');
    return { teachingPeriodId: input.teaching_period_id };
  }
  if (input.start_date !== undefined && input.end_date !== undefined) {
    if (input.end_date < input.start_date) throw badRequest('End date should be after the start date');
    return { startDate: input.start_date, endDate: input.end_date };
  }
  throw badRequest('teaching_period_id, or start_date and end_date, are missing');
}

/** Rolls the unit over to the target the request names and answers the copy as `viewer` sees it. */
export async function rolloverUnitFor(
  em: Em,
  source: IUnit,
  input: { teaching_period_id?: number; start_date?: string; end_date?: string },
  viewer: { id: number; systemRole: SystemRole },
  storage: Storage,
) {
  const copy = await rolloverUnit(em, source, rolloverTarget(input), storage);
  return unitDetail(em, copy.id, await roleInUnit(em, viewer, copy.id), storage);
}
