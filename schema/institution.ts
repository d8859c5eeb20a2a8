import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CAMPUS_MODES, OVERSEER_PULL_STATUSES } from './enums.ts';

export const TeachingPeriod = defineEntity({
  name: 'TeachingPeriod',
  tableName: 'teaching_periods',
  properties: {
    id: p.integer().primary(),
    period: p.string().length(20),
    year: p.integer(),
    startDate: p.datetime(),
    endDate: p.datetime(),
    activeUntil: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['period', 'year'] }],
});
export type ITeachingPeriod = InferEntity<typeof TeachingPeriod>;

export const Break = defineEntity({
  name: 'Break',
  tableName: 'breaks',
  properties: {
    id: p.integer().primary(),
    teachingPeriod: () => p.manyToOne(TeachingPeriod).deleteRule('cascade').index(),
    startDate: p.date(),
    numberOfWeeks: p.integer(),
  },
});
export type IBreak = InferEntity<typeof Break>;

export const Campus = defineEntity({
  name: 'Campus',
  tableName: 'campuses',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(255).unique(),
    abbreviation: p.string().length(255).unique(),
    mode: p.enum(CAMPUS_MODES),
    active: p.boolean().default(true),
  },
});
export type ICampus = InferEntity<typeof Campus>;

export const ActivityType = defineEntity({
  name: 'ActivityType',
  tableName: 'activity_types',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(255).unique(),
    abbreviation: p.string().length(255).unique(),
  },
});
export type IActivityType = InferEntity<typeof ActivityType>;

/** A container image used to run automated assessment of submissions. */
export const OverseerImage = defineEntity({
  name: 'OverseerImage',
  tableName: 'overseer_images',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(255).unique(),
    tag: p.string().length(255).unique(),
    pullStatus: p.enum(OVERSEER_PULL_STATUSES).nullable(),
    pullOutput: p.text().nullable(),
    pullRequestedAt: p.datetime().nullable(),
    lastPulledAt: p.datetime().nullable(),
  },
});
export type IOverseerImage = InferEntity<typeof OverseerImage>;
