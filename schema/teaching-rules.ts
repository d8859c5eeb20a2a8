import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { TASK_STATUSES } from './enums.ts';
import { Project } from './projects.ts';
import { TaskDefinition } from './units.ts';
import { User } from './users.ts';

/**
 * A task definition that may be started only once another of the same unit's has reached a status
 * (docs/prerequisites.md). The links form no cycle; the rules are in src/domain/prerequisites.ts.
 */
export const TaskPrerequisite = defineEntity({
  name: 'TaskPrerequisite',
  tableName: 'task_prerequisites',
  properties: {
    id: p.integer().primary(),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade'),
    prerequisite: () => p.manyToOne(TaskDefinition).deleteRule('cascade').index(),
    // The status the prerequisite's task must have reached (task-status order).
    taskStatus: p.enum(TASK_STATUSES).default('complete'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['taskDefinition', 'prerequisite'] }],
});
export type ITaskPrerequisite = InferEntity<typeof TaskPrerequisite>;

/** A question for the tutor to ask while a task is in discuss or demonstrate (docs/discussion-prompts.md). */
export const DiscussionPrompt = defineEntity({
  name: 'DiscussionPrompt',
  tableName: 'discussion_prompts',
  properties: {
    id: p.integer().primary(),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade').index(),
    content: p.text(),
    // Lower first.
    priority: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IDiscussionPrompt = InferEntity<typeof DiscussionPrompt>;

/**
 * A check-in: staff record that a student engaged (attended, checked in, met) with a note and,
 * optionally, evidence that is a URL or an attachment, never both (docs/check-ins.md).
 */
export const Engagement = defineEntity({
  name: 'Engagement',
  tableName: 'engagements',
  properties: {
    id: p.integer().primary(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    author: () => p.manyToOne(User).index(),
    engagementType: p.string().length(255),
    note: p.text(),
    occurredAt: p.datetime(),
    evidenceUrl: p.text().nullable(),
    // Stored path (relative to the storage root) of the attachment.
    attachmentPath: p.string().length(1024).nullable(),
    attachmentContentType: p.string().length(255).nullable(),
    attachmentFilename: p.string().length(255).nullable(),
    attachmentBytes: p.bigint('number').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['project', 'occurredAt'] }],
});
export type IEngagement = InferEntity<typeof Engagement>;

/** A reply under an engagement. */
export const EngagementComment = defineEntity({
  name: 'EngagementComment',
  tableName: 'engagement_comments',
  properties: {
    id: p.integer().primary(),
    engagement: () => p.manyToOne(Engagement).deleteRule('cascade').index(),
    author: () => p.manyToOne(User).index(),
    comment: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IEngagementComment = InferEntity<typeof EngagementComment>;
