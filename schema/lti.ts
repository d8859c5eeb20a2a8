import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TaskDefinition, Unit } from './units.ts';
import { User } from './users.ts';

/**
 * An LMS (an LTI 1.3 platform) an Admin registered. `issuer` and `clientId` together name it in
 * every launch; `deploymentIds` are the placements of this tool the platform may launch from.
 */
export const LtiPlatform = defineEntity({
  name: 'LtiPlatform',
  tableName: 'lti_platforms',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(255),
    issuer: p.string().length(1024),
    clientId: p.string().length(255),
    authLoginUrl: p.string().length(2048),
    authTokenUrl: p.string().length(2048),
    jwksUrl: p.string().length(2048),
    deploymentIds: p.array().columnType('text[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['issuer', 'clientId'], name: 'lti_platforms_issuer_client_id_unique' }],
});
export type ILtiPlatform = InferEntity<typeof LtiPlatform>;

/**
 * One of the tool's RSA signing key pairs. `privateKey` is AES-256-GCM ciphertext under a key derived
 * from LTI_KEY_SECRET (src/lti/key-crypto.ts). A retired key stays published for a day after
 * `retiredAt` so that platforms holding tokens it signed can still verify them.
 */
export const LtiKey = defineEntity({
  name: 'LtiKey',
  tableName: 'lti_keys',
  properties: {
    id: p.integer().primary(),
    kid: p.string().length(64).unique(),
    publicJwk: p.json<Record<string, unknown>>(),
    privateKey: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    retiredAt: p.datetime().nullable(),
  },
});

/** A platform's user (`issuer`, `sub`) known to be this user: later launches sign them in directly. */
export const LtiIdentity = defineEntity({
  name: 'LtiIdentity',
  tableName: 'lti_identities',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    issuer: p.string().length(1024),
    sub: p.string().length(255),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['issuer', 'sub'], name: 'lti_identities_issuer_sub_unique' }],
});

/** An OIDC login in flight (GET|POST /api/lti/login): its `state` and `nonce` are each accepted once. */
export const LtiLoginState = defineEntity({
  name: 'LtiLoginState',
  tableName: 'lti_login_states',
  properties: {
    state: p.string().length(64).primary(),
    nonce: p.string().length(64),
    platform: () => p.manyToOne(LtiPlatform).deleteRule('cascade'),
    expiresAt: p.datetime().index(),
  },
});

/**
 * A platform's course (the LTI `context` claim) and the unit it is linked to. The first Instructor
 * launch links it (unit null until then); later launches reuse the link. The service URLs come from
 * the launch claims and are refreshed by every launch: NRPS `context_memberships_url` for roster sync,
 * AGS `lineitems` (and the scopes granted) for grade passback.
 */
export const LtiContext = defineEntity({
  name: 'LtiContext',
  tableName: 'lti_contexts',
  properties: {
    id: p.integer().primary(),
    platform: () => p.manyToOne(LtiPlatform).deleteRule('cascade'),
    contextId: p.string().length(255),
    deploymentId: p.string().length(255),
    title: p.string().length(1024).nullable(),
    label: p.string().length(255).nullable(),
    unit: () => p.manyToOne(Unit).nullable().deleteRule('set null').index(),
    membershipsUrl: p.string().length(2048).nullable(),
    lineitemsUrl: p.string().length(2048).nullable(),
    agsScopes: p
      .array()
      .columnType('text[]')
      .onCreate(() => []),
    lastRosterSyncAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['platform', 'contextId'], name: 'lti_contexts_platform_id_context_id_unique' }],
});
export type ILtiContext = InferEntity<typeof LtiContext>;

/**
 * A link placed in a platform's course (the LTI `resource_link` claim). It opens a task definition
 * when deep linking made it (its custom parameter names one) or an Instructor chose one; `lineitemUrl`
 * is its gradebook column (the AGS `lineitem` claim, or one the tool created or found).
 */
export const LtiResourceLink = defineEntity({
  name: 'LtiResourceLink',
  tableName: 'lti_resource_links',
  properties: {
    id: p.integer().primary(),
    context: () => p.manyToOne(LtiContext).deleteRule('cascade'),
    resourceLinkId: p.string().length(255),
    title: p.string().length(1024).nullable(),
    taskDefinition: () => p.manyToOne(TaskDefinition).nullable().deleteRule('set null').index(),
    lineitemUrl: p.string().length(2048).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['context', 'resourceLinkId'], name: 'lti_resource_links_context_id_resource_link_id_unique' }],
});
export type ILtiResourceLink = InferEntity<typeof LtiResourceLink>;
