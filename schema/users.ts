import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SYSTEM_ROLES, WEBCAL_REMINDER_UNITS } from './enums.ts';
import { Unit } from './units.ts';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary(),
    // Stored lower-cased; uniqueness is therefore case-insensitive.
    username: p.string().length(255).unique(),
    email: p.string().length(255).unique(),
    firstName: p.string().length(255),
    lastName: p.string().length(255),
    nickname: p.string().length(255).nullable(),
    pronouns: p.string().length(255).nullable(),
    studentId: p.string().length(255).nullable().unique(),
    systemRole: p.enum(SYSTEM_ROLES),
    // null means "cannot sign in with a password" (SSO-only or not yet set).
    passwordHash: p.string().length(255).nullable().hidden(),
    receiveTaskNotifications: p.boolean().default(true),
    receivePortfolioNotifications: p.boolean().default(true),
    receiveFeedbackNotifications: p.boolean().default(true),
    optInToResearch: p.boolean().nullable(),
    hasRunFirstTimeSetup: p.boolean().default(false),
    simcheckEulaAcceptedAt: p.datetime().nullable(),
    simcheckEulaVersion: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IUser = InferEntity<typeof User>;

export const AuthToken = defineEntity({
  name: 'AuthToken',
  tableName: 'auth_tokens',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    // SHA-256 of the random token; the token itself is never stored.
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/**
 * A token for a SCORM package's assets only (`GET /api/auth/scorm`; docs/online-tests.md): it
 * rides in asset URLs, so it is of its own kind and never signs in to the rest of the API.
 */
export const ScormToken = defineEntity({
  name: 'ScormToken',
  tableName: 'scorm_tokens',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export const Webcal = defineEntity({
  name: 'Webcal',
  tableName: 'webcals',
  properties: {
    id: p.integer().primary(),
    user: () => p.oneToOne(User).owner().deleteRule('cascade').unique(),
    guid: p.string().length(64).unique(),
    includeStartDates: p.boolean().default(false),
    reminderTime: p.integer().nullable(),
    reminderUnit: p.enum(WEBCAL_REMINDER_UNITS).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IWebcal = InferEntity<typeof Webcal>;

export const WebcalUnitExclusion = defineEntity({
  name: 'WebcalUnitExclusion',
  tableName: 'webcal_unit_exclusions',
  properties: {
    id: p.integer().primary(),
    webcal: () => p.manyToOne(Webcal).deleteRule('cascade'),
    unit: () => p.manyToOne(Unit).deleteRule('cascade').index(),
  },
  uniques: [{ properties: ['webcal', 'unit'] }],
});

/** A one-time link for a user without a password to set one (the users CSV import sends it). */
export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitations',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    // SHA-256 of the random token; the token itself is only ever in the mail.
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
