import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SIMILARITY_KINDS } from './enums.ts';
import { Task } from './tasks.ts';
import { TaskDefinition, Unit } from './units.ts';
import { User } from './users.ts';

/** A detected similarity between a task's submission and other work. */
export const TaskSimilarity = defineEntity({
  name: 'TaskSimilarity',
  tableName: 'task_similarities',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade').index(),
    kind: p.enum(SIMILARITY_KINDS),
    pct: p.integer(),
    flagged: p.boolean().default(false),
    otherTask: () => p.manyToOne(Task).nullable().deleteRule('set null').index(),
    reportPath: p.string().length(1024).nullable(),
    reportUrl: p.string().length(1024).nullable(),
    simcheckSubmission: () => p.manyToOne(SimcheckSubmission).nullable().deleteRule('set null').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A document sent to the similarity-check service. */
export const SimcheckSubmission = defineEntity({
  name: 'SimcheckSubmission',
  tableName: 'simcheck_submissions',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade').index(),
    submitter: () => p.manyToOne(User).nullable().index(),
    idx: p.integer(),
    filename: p.string().length(255),
    remoteId: p.string().length(255).nullable(),
    status: p.string().length(64).default('created'),
    similarityPct: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

/** A task-resource document registered with the similarity service so it is not flagged. */
export const SimcheckGroupAttachment = defineEntity({
  name: 'SimcheckGroupAttachment',
  tableName: 'simcheck_group_attachments',
  properties: {
    id: p.integer().primary(),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade').index(),
    filename: p.string().length(255),
    remoteId: p.string().length(255).nullable(),
    fileSha1: p.string().length(40),
    status: p.string().length(64).default('created'),
  },
});
export type ISimcheckGroupAttachment = InferEntity<typeof SimcheckGroupAttachment>;

/** One call (and its retries) to the similarity-check service, shown on the admin log. */
export const SimcheckAction = defineEntity({
  name: 'SimcheckAction',
  tableName: 'simcheck_actions',
  properties: {
    id: p.integer().primary(),
    unit: () => p.manyToOne(Unit).nullable().deleteRule('cascade').index(),
    action: p.string().length(64),
    description: p.text().nullable(),
    params: p.json<Record<string, unknown>>().defaultRaw(`'{}'`),
    complete: p.boolean().default(false),
    retry: p.boolean().default(false),
    retries: p.integer().default(0),
    lastRun: p.datetime().nullable(),
    errorCode: p.string().length(64).nullable(),
    errorMessage: p.text().nullable(),
    log: p.json<unknown[]>().defaultRaw(`'[]'`),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date())
      .index(),
  },
});
export type ISimcheckAction = InferEntity<typeof SimcheckAction>;
