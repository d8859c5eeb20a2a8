// Staff notes, moderation samples and escalations (issue 18 §3–4, docs/marking/notes-moderation-escalation.md):
// what the unit's staff say to each other about students' work, never shown to a student.
import { defineEntity, p } from '@mikro-orm/core';
import { Project } from './projects.ts';
import { Task } from './tasks.ts';
import { TaskDefinition, Unit } from './units.ts';
import { User } from './users.ts';

export const MODERATION_VERDICTS = ['agree', 'disagree'] as const;
export type ModerationVerdict = (typeof MODERATION_VERDICTS)[number];

/** A private note of the unit's staff on a student's project (optionally about one of its tasks). */
export const StaffNote = defineEntity({
  name: 'StaffNote',
  tableName: 'staff_notes',
  properties: {
    id: p.integer().primary(),
    project: () => p.manyToOne(Project).deleteRule('cascade').index(),
    author: () => p.manyToOne(User).deleteRule('cascade').index(),
    // The task the note is about: only that task is marked in a mentioned person's inbox (else all the project's tasks).
    taskDefinition: () => p.manyToOne(TaskDefinition).nullable().deleteRule('set null').index(),
    text: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

/** A staff member mentioned in a note; in their inbox until seen. */
export const StaffNoteMention = defineEntity({
  name: 'StaffNoteMention',
  tableName: 'staff_note_mentions',
  properties: {
    id: p.integer().primary(),
    note: () => p.manyToOne(StaffNote).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    seenAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['note', 'user'] }],
});

/** One draw of a moderation sample: a percentage of each assessor's completed tasks of one definition. */
export const ModerationSample = defineEntity({
  name: 'ModerationSample',
  tableName: 'moderation_samples',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade').index(),
    percent: p.integer(),
    // Staff the convenor named to review this sample (a convenor may always review).
    moderatorIds: p.json<number[]>(),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** One sampled task and the moderator's verdict on its assessment. A task is drawn at most once. */
export const ModerationItem = defineEntity({
  name: 'ModerationItem',
  tableName: 'moderation_items',
  properties: {
    id: p.integer().primary(),
    sample: () => p.manyToOne(ModerationSample).deleteRule('cascade').index(),
    task: () => p.manyToOne(Task).deleteRule('cascade').unique(),
    // Who made the assessment being moderated (the latest assessment's assessor when drawn).
    assessor: () => p.manyToOne(User).deleteRule('cascade').index(),
    verdict: p.enum(MODERATION_VERDICTS).nullable(),
    comment: p.text().nullable(),
    reviewer: () => p.manyToOne(User).nullable().deleteRule('set null'),
    reviewedAt: p.datetime().nullable(),
  },
});

/**
 * A task a tutor escalated to the unit's convenors; open until resolved. `unit` is kept on the row
 * so that "open escalations per tutor" is one grouped scan (the workload dashboard reads it).
 */
export const TaskEscalation = defineEntity({
  name: 'TaskEscalation',
  tableName: 'task_escalations',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade'),
    task: () => p.manyToOne(Task).deleteRule('cascade').index(),
    escalatedBy: () => p.manyToOne(User).deleteRule('cascade').index(),
    reason: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    resolvedAt: p.datetime().nullable(),
    resolvedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    resolutionNote: p.text().nullable(),
  },
});
