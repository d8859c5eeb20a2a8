import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { PlagiarismCheck, UploadRequirement } from '../src/domain/task-definitions.ts';
import { SCORM_TRUST, SCORM_VERSIONS, TASK_STATUSES, UNIT_STAFF_ROLES } from './enums.ts';
import { ActivityType, Campus, OverseerImage, TeachingPeriod } from './institution.ts';
import { Task } from './tasks.ts';
import { User } from './users.ts';

export const Unit = defineEntity({
  name: 'Unit',
  tableName: 'units',
  properties: {
    id: p.integer().primary(),
    code: p.string().length(255),
    name: p.string().length(255),
    description: p.text(),
    teachingPeriod: () => p.manyToOne(TeachingPeriod).nullable().deleteRule('restrict').index(),
    startDate: p.date(),
    endDate: p.date(),
    active: p.boolean().default(true),
    // The unit role (not the user) of the main convenor, as in the original.
    mainConvenor: () => p.manyToOne(UnitRole).nullable().deleteRule('set null').index(),
    overseerImage: () => p.manyToOne(OverseerImage).nullable().deleteRule('restrict').index(),
    assessmentEnabled: p.boolean().default(true),
    autoApplyExtensionBeforeDeadline: p.boolean().default(true),
    sendNotifications: p.boolean().default(true),
    enableSyncEnrolments: p.boolean().default(false),
    enableSyncTimetable: p.boolean().default(false),
    allowStudentExtensionRequests: p.boolean().default(true),
    allowStudentChangeTutorial: p.boolean().default(true),
    // Staff must comment with a change to discuss, demonstrate, redo, fix and resubmit or feedback exceeded.
    requireFeedbackComment: p.boolean().default(false),
    extensionWeeksOnResubmitRequest: p.integer().default(0),
    portfolioAutoGenerationDate: p.date().nullable(),
    draftTaskDefinition: () => p.manyToOne(TaskDefinition).nullable().deleteRule('set null').index(),
    // Discuss timeouts (docs/discuss-timeouts.md): a task left in discuss is warned about, then sent back.
    discussTimeoutEnabled: p.boolean().default(false),
    // Teaching days (breaks not counted) in discuss before the warning; below the expiry.
    discussTimeoutWarningDays: p.integer().default(7),
    // Teaching days in discuss before the task moves to fix_and_resubmit.
    discussTimeoutExpireDays: p.integer().default(14),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['code'] }, { properties: ['active'] }],
});
export type IUnit = InferEntity<typeof Unit>;

/** A staff member's place in a unit. Students are enrolled through projects instead. */
export const UnitRole = defineEntity({
  name: 'UnitRole',
  tableName: 'unit_roles',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    role: p.enum(UNIT_STAFF_ROLES),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['unit', 'user'] }],
});
export type IUnitRole = InferEntity<typeof UnitRole>;

/** An intended learning outcome (ILO) of a unit. */
export const LearningOutcome = defineEntity({
  name: 'LearningOutcome',
  tableName: 'learning_outcomes',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    iloNumber: p.integer(),
    abbreviation: p.string().length(255),
    name: p.string().length(255),
    description: p.text(),
  },
  uniques: [{ properties: ['unit', 'abbreviation'] }],
});
export type ILearningOutcome = InferEntity<typeof LearningOutcome>;

export const TutorialStream = defineEntity({
  name: 'TutorialStream',
  tableName: 'tutorial_streams',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    activityType: () => p.manyToOne(ActivityType).index(),
    name: p.string().length(255),
    abbreviation: p.string().length(255),
  },
  uniques: [{ properties: ['unit', 'abbreviation'] }, { properties: ['unit', 'name'] }],
});
export type ITutorialStream = InferEntity<typeof TutorialStream>;

export const Tutorial = defineEntity({
  name: 'Tutorial',
  tableName: 'tutorials',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    campus: () => p.manyToOne(Campus).nullable().deleteRule('restrict').index(),
    tutorialStream: () => p.manyToOne(TutorialStream).nullable().deleteRule('cascade').index(),
    // The tutor is a unit role so that removing staff from a unit is visible here.
    tutor: () => p.manyToOne(UnitRole).nullable().deleteRule('set null').index(),
    abbreviation: p.string().length(255),
    meetingDay: p.string().length(255),
    meetingTime: p.string().length(255),
    meetingLocation: p.string().length(255),
    // -1 means unlimited, as in the original.
    capacity: p.integer().default(-1),
  },
  uniques: [{ properties: ['unit', 'abbreviation'] }],
});
export type ITutorial = InferEntity<typeof Tutorial>;

export const GroupSet = defineEntity({
  name: 'GroupSet',
  tableName: 'group_sets',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    name: p.string().length(255),
    allowStudentsToCreateGroups: p.boolean().default(true),
    allowStudentsToManageGroups: p.boolean().default(true),
    keepGroupsInSameClass: p.boolean().default(false),
    capacity: p.integer().nullable(),
    locked: p.boolean().default(false),
  },
  uniques: [{ properties: ['unit', 'name'] }],
});
export type IGroupSet = InferEntity<typeof GroupSet>;

export const Group = defineEntity({
  name: 'Group',
  tableName: 'groups',
  properties: {
    id: p.integer().primary(),
    groupSet: () => p.manyToOne(GroupSet).deleteRule('cascade').index(),
    tutorial: () => p.manyToOne(Tutorial).index(),
    name: p.string().length(255),
    capacityAdjustment: p.integer().default(0),
    locked: p.boolean().default(false),
  },
  uniques: [{ properties: ['groupSet', 'name'] }],
});
export type IGroup = InferEntity<typeof Group>;

export const TaskDefinition = defineEntity({
  name: 'TaskDefinition',
  tableName: 'task_definitions',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    tutorialStream: () => p.manyToOne(TutorialStream).nullable().deleteRule('set null').index(),
    groupSet: () => p.manyToOne(GroupSet).nullable().deleteRule('set null').index(),
    overseerImage: () => p.manyToOne(OverseerImage).nullable().deleteRule('restrict').index(),
    name: p.string().length(255),
    abbreviation: p.string().length(255),
    description: p.text(),
    weighting: p.integer().default(0),
    targetGrade: p.integer().default(0),
    startDate: p.date(),
    targetDate: p.date(),
    // Hard deadline; null means the unit's end date.
    dueDate: p.date().nullable(),
    restrictStatusUpdates: p.boolean().default(false),
    uploadRequirements: p.json<UploadRequirement[]>().defaultRaw(`'[]'`),
    plagiarismChecks: p.json<PlagiarismCheck[]>().defaultRaw(`'[]'`),
    plagiarismWarnPct: p.integer().default(50),
    isGraded: p.boolean().default(false),
    maxQualityPts: p.integer().default(0),
    assessmentEnabled: p.boolean().default(false),
    mossLanguage: p.string().length(255).nullable(),
    simcheckGroupId: p.string().length(255).nullable(),
    // Online tests (docs/online-tests.md): a SCORM package, the student's attempts and their rules.
    scormEnabled: p.boolean().default(false),
    scormAllowReview: p.boolean().default(false),
    // Students may upload before they pass the test.
    scormBypassTest: p.boolean().default(false),
    scormTimeDelayEnabled: p.boolean().default(false),
    // 0: unlimited.
    scormAttemptLimit: p.integer().default(0),
    scormTrust: p.enum(SCORM_TRUST).default('package'),
    // The status a passed attempt moves the task to; null: a pass changes no status.
    scormPassStatus: p.enum(TASK_STATUSES).nullable(),
    // Read from the package's imsmanifest.xml on upload; null while there is no package.
    scormVersion: p.enum(SCORM_VERSIONS).nullable(),
    scormLaunchFile: p.string().length(1024).nullable(),
    scormPackageBytes: p.bigint('number').nullable(),
    // A staff move to complete needs the task to have been in discuss or demonstrate since its last submission (docs/discussion-prompts.md).
    requiresDiscussion: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['unit', 'abbreviation'] }, { properties: ['unit', 'name'] }],
});
export type ITaskDefinition = InferEntity<typeof TaskDefinition>;

/**
 * How strongly a task addresses a learning outcome. Without `task` it is the unit's own
 * alignment; with `task` it is the student's self-assessment for that task.
 */
export const LearningAlignment = defineEntity({
  name: 'LearningAlignment',
  tableName: 'learning_alignments',
  properties: {
    id: p.integer().primary(),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade').index(),
    learningOutcome: () => p.manyToOne(LearningOutcome).deleteRule('cascade').index(),
    task: () => p.manyToOne(Task).nullable().deleteRule('cascade').index(),
    rating: p.integer(),
    description: p.text().nullable(),
  },
});
export type ILearningAlignment = InferEntity<typeof LearningAlignment>;

export type { PlagiarismCheck, UploadRequirement } from '../src/domain/task-definitions.ts';
