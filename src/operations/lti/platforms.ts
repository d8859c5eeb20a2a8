// The LMSs (LTI 1.3 platforms) an Admin registered (docs/lti.md). A platform is named in launches by
// (issuer, client_id), so that pair is unique: a second registration of it is refused with 400.
import { z } from 'zod';
import { type ILtiPlatform, LtiPlatform } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import { badRequest } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';
import { ltiSecret } from './configured.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An https URL; plain http only to this machine (a platform under test, or one on the same host). */
export function isPlatformUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

export const PLATFORM_URL_RULE = 'must be an https URL (http only for 127.0.0.1 or localhost)';

export const platformOut = z.object({
  id: z.number().int(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  auth_login_url: z.string(),
  auth_token_url: z.string(),
  jwks_url: z.string(),
  deployment_ids: z.array(z.string()),
});
export type PlatformOut = z.infer<typeof platformOut>;

export interface PlatformFields {
  name: string;
  issuer: string;
  client_id: string;
  auth_login_url: string;
  auth_token_url: string;
  jwks_url: string;
  deployment_ids: string[];
}

function toPlatform(p: ILtiPlatform): PlatformOut {
  return {
    id: p.id,
    name: p.name,
    issuer: p.issuer,
    client_id: p.clientId,
    auth_login_url: p.authLoginUrl,
    auth_token_url: p.authTokenUrl,
    jwks_url: p.jwksUrl,
    deployment_ids: p.deploymentIds,
  };
}

function columns(f: Partial<PlatformFields>) {
  const out: Partial<Omit<ILtiPlatform, 'id' | 'createdAt' | 'updatedAt'>> = {};
  if (f.name !== undefined) out.name = f.name;
  if (f.issuer !== undefined) out.issuer = f.issuer;
  if (f.client_id !== undefined) out.clientId = f.client_id;
  if (f.auth_login_url !== undefined) out.authLoginUrl = f.auth_login_url;
  if (f.auth_token_url !== undefined) out.authTokenUrl = f.auth_token_url;
  if (f.jwks_url !== undefined) out.jwksUrl = f.jwks_url;
  if (f.deployment_ids !== undefined) out.deploymentIds = [...new Set(f.deployment_ids)];
  return out;
}

/** 400 when another platform already has this (issuer, client_id): checked first for a clear message (the unique index still decides a race). */
async function refuseDuplicate(em: Em, issuer: string, clientId: string, exceptId?: number): Promise<void> {
  const other = await em.findOne(LtiPlatform, { issuer, clientId, ...(exceptId !== undefined && { id: { $ne: exceptId } }) }, { fields: ['id'] });
  if (other) throw badRequest(`A platform with issuer ${issuer} and client_id ${clientId} is already registered (id ${other.id})`);
}

export async function listPlatforms(em: Em, config: Pick<Config, 'lti'>): Promise<PlatformOut[]> {
  ltiSecret(config);
  return (await em.find(LtiPlatform, {}, { orderBy: { id: 'asc' } })).map(toPlatform);
}

export async function getPlatform(em: Em, config: Pick<Config, 'lti'>, id: number): Promise<PlatformOut> {
  ltiSecret(config);
  return toPlatform(await findOr404(em, LtiPlatform, id));
}

export async function createPlatform(em: Em, config: Pick<Config, 'lti'>, fields: PlatformFields): Promise<PlatformOut> {
  ltiSecret(config);
  await refuseDuplicate(em, fields.issuer, fields.client_id);
  const platform = em.create(LtiPlatform, {
    name: fields.name,
    issuer: fields.issuer,
    clientId: fields.client_id,
    authLoginUrl: fields.auth_login_url,
    authTokenUrl: fields.auth_token_url,
    jwksUrl: fields.jwks_url,
    deploymentIds: [...new Set(fields.deployment_ids)],
  });
  await em.flush();
  return toPlatform(platform);
}

export async function updatePlatform(em: Em, config: Pick<Config, 'lti'>, id: number, fields: Partial<PlatformFields>): Promise<PlatformOut> {
  ltiSecret(config);
  const platform = await findOr404(em, LtiPlatform, id);
  await refuseDuplicate(em, fields.issuer ?? platform.issuer, fields.client_id ?? platform.clientId, id);
  em.assign(platform, columns(fields));
  await em.flush();
  return toPlatform(platform);
}

/** Removes the platform and its logins in flight; users it signed in keep their accounts. */
export async function deletePlatform(em: Em, config: Pick<Config, 'lti'>, id: number): Promise<PlatformOut> {
  ltiSecret(config);
  const platform = await findOr404(em, LtiPlatform, id);
  const out = toPlatform(platform);
  em.remove(platform);
  await em.flush();
  return out;
}
