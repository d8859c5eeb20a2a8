// The LTI claims of a launch whose id_token is already verified (launch-token.ts): checked against
// LTI 1.3 (version, message type, roles, context, resource link, deployment) and reduced to what the
// tool uses. Any claim missing or malformed is a 400 naming it.
import type { JWTPayload } from 'jose';
import { z } from 'zod';
import type { ILtiPlatform } from '../../../schema/index.ts';
import { badRequest } from '../../lib/errors.ts';
import type { DeepLinkingSettings } from './deep-linking.ts';

export const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const DEEP_LINKING_SETTINGS = 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings';
const NRPS = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
const AGS = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';

export const MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** What a validated launch says; kept (as JSON) in a ticket while an Instructor links the context. */
export interface LaunchClaims {
  issuer: string;
  sub: string;
  messageType: MessageType;
  deploymentId: string;
  targetLinkUri: string;
  roles: string[];
  context: { id: string; label: string | null; title: string | null };
  resourceLink: { id: string; title: string | null } | null;
  custom: Record<string, string>;
  person: { email: string | null; givenName: string | null; familyName: string | null; name: string | null };
  membershipsUrl: string | null;
  ags: { lineitems: string | null; lineitem: string | null; scope: string[] } | null;
  deepLinking: DeepLinkingSettings | null;
}

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v ? v.trim() || null : null));
// http(s) only: these URLs are fetched (NRPS, AGS) or a browser is sent to them (deep_link_return_url).
const url = z
  .string()
  .max(2048)
  .refine((v) => URL.canParse(v) && ['https:', 'http:'].includes(new URL(v).protocol), { message: 'must be an http(s) URL' });

const claims = z.object({
  sub: text(255),
  [`${LTI}version`]: z.literal('1.3.0', { message: 'must be 1.3.0' }),
  [`${LTI}message_type`]: z.enum(MESSAGE_TYPES, { message: `must be one of ${MESSAGE_TYPES.join(', ')}` }),
  [`${LTI}deployment_id`]: text(255),
  [`${LTI}target_link_uri`]: url,
  [`${LTI}roles`]: z.array(z.string().max(1024)).max(200),
  [`${LTI}context`]: z.object({ id: text(255), label: optionalText(255), title: optionalText(1024) }),
  [`${LTI}resource_link`]: z.object({ id: text(255), title: optionalText(1024) }).optional(),
  // Values are strings in LTI; a platform's numbers are kept as their text.
  [`${LTI}custom`]: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  email: z.string().email().max(255).optional().catch(undefined),
  given_name: optionalText(255).catch(null),
  family_name: optionalText(255).catch(null),
  name: optionalText(255).catch(null),
  [NRPS]: z.object({ context_memberships_url: url }).passthrough().optional().catch(undefined),
  [AGS]: z
    .object({ lineitems: url.optional(), lineitem: url.optional(), scope: z.array(z.string().max(255)).max(20).default([]) })
    .passthrough()
    .optional()
    .catch(undefined),
  [DEEP_LINKING_SETTINGS]: z
    .object({
      deep_link_return_url: url,
      accept_types: z.array(z.string()),
      accept_presentation_document_targets: z.array(z.string()).optional(),
      accept_multiple: z.boolean().optional(),
      auto_create: z.boolean().optional(),
      title: z.string().optional(),
      text: z.string().optional(),
      data: z.string().optional(),
    })
    .optional(),
});

/** The claim a zod issue is about, without the long URI prefixes: `context.id`, `deployment_id`. */
function claimName(path: PropertyKey[]): string {
  return path
    .map((p) =>
      String(p)
        .replace(LTI, '')
        .replace(/^https:\/\/purl\.imsglobal\.org\/spec\/[^/]+\/claim\//, ''),
    )
    .join('.');
}

const invalid = (why: string) => badRequest(`Invalid LTI launch: ${why}`);

/** The launch's claims, or 400. The deployment must be one the platform was registered with. */
export function launchClaims(platform: Pick<ILtiPlatform, 'issuer' | 'deploymentIds'>, payload: JWTPayload): LaunchClaims {
  const parsed = claims.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${claimName(issue.path)} ${issue.message.replace(/^Invalid input: /, '')}`.trim());
  }
  const c = parsed.data as Record<string, unknown> & z.infer<typeof claims>;
  const deploymentId = c[`${LTI}deployment_id`] as string;
  if (!platform.deploymentIds.includes(deploymentId)) throw badRequest(`Unknown LTI deployment ${deploymentId} for this platform`);
  const messageType = c[`${LTI}message_type`] as MessageType;
  const resourceLink = (c[`${LTI}resource_link`] as LaunchClaims['resourceLink'] | undefined) ?? null;
  if (messageType === 'LtiResourceLinkRequest' && !resourceLink) throw invalid('resource_link is missing');
  const deepLinking = (c[DEEP_LINKING_SETTINGS] as DeepLinkingSettings | undefined) ?? null;
  if (messageType === 'LtiDeepLinkingRequest' && !deepLinking) throw invalid('deep_linking_settings is missing');
  const ags = c[AGS] as { lineitems?: string; lineitem?: string; scope: string[] } | undefined;
  const context = c[`${LTI}context`] as LaunchClaims['context'];
  return {
    issuer: platform.issuer,
    sub: c.sub,
    messageType,
    deploymentId,
    targetLinkUri: c[`${LTI}target_link_uri`] as string,
    roles: c[`${LTI}roles`] as string[],
    context: { id: context.id, label: context.label ?? null, title: context.title ?? null },
    resourceLink: messageType === 'LtiResourceLinkRequest' ? resourceLink : null,
    custom: (c[`${LTI}custom`] as Record<string, string> | undefined) ?? {},
    person: { email: c.email?.toLowerCase() ?? null, givenName: c.given_name, familyName: c.family_name, name: c.name },
    membershipsUrl: (c[NRPS] as { context_memberships_url: string } | undefined)?.context_memberships_url ?? null,
    ags: ags ? { lineitems: ags.lineitems ?? null, lineitem: ags.lineitem ?? null, scope: ags.scope } : null,
    deepLinking,
  };
}
