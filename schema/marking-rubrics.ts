import { defineEntity, p } from '@mikro-orm/core';
import { RUBRIC_MAPPINGS } from '../src/domain/rubric-scores.ts';
import { Task } from './tasks.ts';
import { TaskDefinition } from './units.ts';
import { User } from './users.ts';

/**
 * A task definition's rubric (docs/marking/rubrics.md): its criteria and levels, and how a score
 * maps to the task's grade or quality points (`mapping`; `thresholds` are fractions of the maximum).
 */
export const Rubric = defineEntity({
  name: 'Rubric',
  tableName: 'rubrics',
  properties: {
    id: p.integer().primary(),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade').unique(),
    mapping: p.enum(RUBRIC_MAPPINGS).default('none'),
    // {"pass":0.5,"credit":0.6,"distinction":0.7,"high_distinction":0.8} for the grade mapping.
    thresholds: p.json<Record<string, number>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export const RubricCriterion = defineEntity({
  name: 'RubricCriterion',
  tableName: 'rubric_criteria',
  properties: {
    id: p.integer().primary(),
    rubric: () => p.manyToOne(Rubric).deleteRule('cascade'),
    title: p.string().length(255),
    description: p.text().default(''),
    position: p.integer(),
  },
  uniques: [{ properties: ['rubric', 'position'] }],
});

export const RubricLevel = defineEntity({
  name: 'RubricLevel',
  tableName: 'rubric_levels',
  properties: {
    id: p.integer().primary(),
    criterion: () => p.manyToOne(RubricCriterion).deleteRule('cascade'),
    title: p.string().length(255),
    description: p.text().default(''),
    points: p.double(),
    position: p.integer(),
  },
  uniques: [{ properties: ['criterion', 'position'] }],
});

/** A task marked against its definition's rubric: the computed score and who marked it. */
export const RubricMark = defineEntity({
  name: 'RubricMark',
  tableName: 'rubric_marks',
  properties: {
    id: p.integer().primary(),
    task: () => p.manyToOne(Task).deleteRule('cascade').unique(),
    rubric: () => p.manyToOne(Rubric).deleteRule('cascade').index(),
    score: p.double(),
    marker: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

/** The level chosen for one criterion of a mark; re-scoring finds marks by level. */
export const RubricMarkChoice = defineEntity({
  name: 'RubricMarkChoice',
  tableName: 'rubric_mark_choices',
  properties: {
    id: p.integer().primary(),
    mark: () => p.manyToOne(RubricMark).deleteRule('cascade'),
    criterion: () => p.manyToOne(RubricCriterion).deleteRule('cascade'),
    // Restrict: a level in use can not be removed from the rubric (the PUT answers 400 first).
    level: () => p.manyToOne(RubricLevel).deleteRule('restrict').index(),
  },
  uniques: [{ properties: ['mark', 'criterion'] }],
});
