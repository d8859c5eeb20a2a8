import { defineEntity, p } from '@mikro-orm/core';
import { COMMENT_KINDS, OVERSEER_ASSESSMENT_STATUSES, TASK_STATUSES, UPLOAD_KINDS } from './enums.ts';
import { GroupSubmission, Project } from './projects.ts';
import { TaskDefinition } from './units.ts';
import { User } from './users.ts';

/** A student's work on one task definition; created lazily on first touch. */
export const Task = defineEntity({
  name: 'Task',
  tableName: 'tasks',
  properties: {
    id: p.integer().primary(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade').index(),
    groupSubmission: () => p.manyToOne(GroupSubmission).nullable().deleteRule('set null').index(),
    status: p.enum(TASK_STATUSES).default('not_started'),
    // Granted extension weeks.
    extensions: p.integer().default(0),
    // Granted blocks of extra test attempts (docs/online-tests.md).
    scormExtensions: p.integer().default(0),
    timesAssessed: p.integer().default(0),
    grade: p.integer().nullable(),
    // -1 until rated, as in the original.
    qualityPts: p.integer().default(-1),
    includeInPortfolio: p.boolean().default(true),
    submissionDate: p.datetime().nullable(),
    assessmentDate: p.datetime().nullable(),
    completionDate: p.date().nullable(),
    fileUploadedAt: p.datetime().nullable(),
    // Stored path (relative to the storage root) of the generated submission PDF.
    pdfPath: p.string().length(1024).nullable(),
    contributionPct: p.integer().nullable(),
    contributionPts: p.integer().nullable(),
    // When the task last entered discuss or demonstrate (set by changeTask); required discussion
    // compares it with the last submission, discuss timeouts count from it.
    movedToDiscussAt: p.datetime().nullable(),
    // Once per stay in discuss: the timeout warning and expiry sent (docs/discuss-timeouts.md).
    notifiedDiscussWarningAt: p.datetime().nullable(),
    notifiedDiscussExpiryAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['project', 'taskDefinition'] }],
  indexes: [{ properties: ['status'] }],
});

/**
 * Every kind of comment on a task in one table: text, media attachments, status changes,
 * extension requests, audio discussions and automated-assessment notes. Kind-specific
 * columns are null for the other kinds.
 */
export const TaskComment = defineEntity({
  name: 'TaskComment',
  tableName: 'task_comments',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade'),
    author: () => p.manyToOne(User).index(),
    recipient: () => p.manyToOne(User).nullable().index(),
    kind: p.enum(COMMENT_KINDS).default('text'),
    comment: p.text().nullable(),
    replyTo: () => p.manyToOne(TaskComment).nullable().deleteRule('set null').index(),
    attachmentPath: p.string().length(1024).nullable(),
    attachmentContentType: p.string().length(255).nullable(),
    // status comments
    taskStatus: p.enum(TASK_STATUSES).nullable(),
    // extension comments
    extensionWeeksRequested: p.integer().nullable(),
    extensionGranted: p.boolean().nullable(),
    extensionAssessedAt: p.datetime().nullable(),
    extensionAssessor: () => p.manyToOne(User).nullable().index(),
    extensionResponse: p.text().nullable(),
    // discussion comments
    discussionStartedAt: p.datetime().nullable(),
    discussionCompletedAt: p.datetime().nullable(),
    discussionPromptCount: p.integer().nullable(),
    // assessment comments
    overseerAssessment: () => p.manyToOne(OverseerAssessment).nullable().deleteRule('set null').index(),
    // scorm comments: the attempt whose result they state; they go with it.
    testAttempt: () => p.manyToOne(TestAttempt).nullable().deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['task', 'createdAt'] }],
});

/** "User has read this comment"; the inbox counts comments without one. */
export const CommentReadReceipt = defineEntity({
  name: 'CommentReadReceipt',
  tableName: 'comment_read_receipts',
  properties: {
    id: p.integer().primary(),
    comment: () => p.manyToOne(TaskComment).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['comment', 'user'] }],
});

export const TaskPin = defineEntity({
  name: 'TaskPin',
  tableName: 'task_pins',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['task', 'user'] }],
});

/** One upload of a task's files, and the assessment that followed it. */
export const TaskSubmission = defineEntity({
  name: 'TaskSubmission',
  tableName: 'task_submissions',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade'),
    submittedBy: () => p.manyToOne(User).nullable().index(),
    submittedAt: p.datetime(),
    assessor: () => p.manyToOne(User).nullable().index(),
    assessedAt: p.datetime().nullable(),
    outcome: p.enum(TASK_STATUSES).nullable(),
    // True while the files wait for PDF assembly.
    processing: p.boolean().default(true),
  },
  indexes: [{ properties: ['task', 'submittedAt'] }],
});

export const SubmissionFile = defineEntity({
  name: 'SubmissionFile',
  tableName: 'submission_files',
  properties: {
    id: p.integer().primary(),
    submission: () => p.manyToOne(TaskSubmission).deleteRule('cascade').index(),
    idx: p.integer(),
    key: p.string().length(64),
    name: p.string().length(255),
    kind: p.enum(UPLOAD_KINDS),
    originalFilename: p.string().length(255),
    contentType: p.string().length(255),
    sizeBytes: p.integer(),
    storagePath: p.string().length(1024),
  },
});

/** An automated-assessment run of one submission in a container. */
export const OverseerAssessment = defineEntity({
  name: 'OverseerAssessment',
  tableName: 'overseer_assessments',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade'),
    submissionTimestamp: p.datetime(),
    status: p.enum(OVERSEER_ASSESSMENT_STATUSES).default('pre_queued'),
    resultTaskStatus: p.enum(TASK_STATUSES).nullable(),
    outputPath: p.string().length(1024).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['task', 'submissionTimestamp'] }],
});

/**
 * One attempt at a task's online test (docs/online-tests.md): the SCORM 2004 run-time data model
 * the package committed (element → value), and the fields kept in step with it for lists.
 */
export const TestAttempt = defineEntity({
  name: 'TestAttempt',
  tableName: 'test_attempts',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade'),
    attemptedTime: p.datetime(),
    terminated: p.boolean().default(false),
    terminatedAt: p.datetime().nullable(),
    completionStatus: p.boolean().default(false),
    successStatus: p.boolean().default(false),
    scoreScaled: p.double().nullable(),
    cmiDatamodel: p.json<Record<string, string>>(),
    // A staff override of success_status: who and when (the comment is rewritten with it).
    successOverriddenBy: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
    successOverriddenAt: p.datetime().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['task', 'attemptedTime'] }],
});
