import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { TASK_STATUSES } from './enums.ts';
import { Task, TaskComment } from './tasks.ts';
import { TaskDefinition, Unit } from './units.ts';
import { User } from './users.ts';

/**
 * A convenor's group of feedback comment templates (docs/marking/templates.md): for the whole
 * unit, or for one task definition (then it goes when the definition goes).
 */
export const FeedbackTemplateGroup = defineEntity({
  name: 'FeedbackTemplateGroup',
  tableName: 'feedback_template_groups',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
    taskDefinition: () => p.manyToOne(TaskDefinition).nullable().deleteRule('cascade').index(),
    name: p.string().length(255),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IFeedbackTemplateGroup = InferEntity<typeof FeedbackTemplateGroup>;

/** One template: a title, text with placeholders, and a status it suggests (or none). */
export const FeedbackTemplate = defineEntity({
  name: 'FeedbackTemplate',
  tableName: 'feedback_templates',
  properties: {
    id: p.integer().primary(),
    group: () => p.manyToOne(FeedbackTemplateGroup).deleteRule('cascade').index(),
    title: p.string().length(255),
    text: p.text(),
    suggestedStatus: p.enum(TASK_STATUSES).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IFeedbackTemplate = InferEntity<typeof FeedbackTemplate>;

/** A template used in a comment: counted per template in the list. */
export const FeedbackTemplateUse = defineEntity({
  name: 'FeedbackTemplateUse',
  tableName: 'feedback_template_uses',
  properties: {
    id: p.integer().primary(),
    template: () => p.manyToOne(FeedbackTemplate).deleteRule('cascade').index(),
    task: () => p.manyToOne(Task).deleteRule('cascade').index(),
    comment: () => p.manyToOne(TaskComment).nullable().deleteRule('set null').index(),
    user: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
