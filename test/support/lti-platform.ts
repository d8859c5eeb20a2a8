// A loopback LTI 1.3 platform (an LMS) for the tests: its own RSA keys (jose), a JWKS endpoint, an
// OIDC authorisation endpoint that records the tool's login redirects, and helpers that sign
// id_tokens carrying the standard LTI claims. Register it with `registration()` and launch with
// `idToken()`; the attack tests change one claim or header at a time. For LTI Dynamic Registration
// it serves its OpenID configuration and a registration endpoint that records the tool's
// registration; `verifyToolJwt` checks what the tool signs the way a platform would.
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK, type JWTPayload, jwtVerify, SignJWT } from 'jose';

export const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

export type LtiRole = 'Learner' | 'Instructor' | 'TeachingAssistant';
const ROLE_URI: Record<LtiRole, string> = {
  Learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  Instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  TeachingAssistant: 'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
};

export interface LaunchOptions {
  /** The tool's client_id at this platform (the token's `aud`). */
  clientId?: string;
  deploymentId?: string;
  nonce: string;
  sub?: string;
  roles?: LtiRole[];
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  context?: { id: string; label?: string; title?: string };
  resourceLink?: { id: string; title?: string };
  targetLinkUri?: string;
  custom?: Record<string, string>;
  person?: { email?: string; given_name?: string; family_name?: string; name?: string };
  /** Seconds the token lives (negative: already expired). */
  lifetimeSeconds?: number;
  /** Extra or replacing claims, applied last. */
  claims?: JWTPayload;
}

/** What the platform's authorisation endpoint received: the tool's OIDC login redirect. */
export interface AuthRequest {
  method: string;
  query: URLSearchParams;
}

/** What the registration endpoint received: the tool's registration (LTI Dynamic Registration). */
export interface RegistrationRequest {
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** What the platform answered: the client_id and deployment_id it gave the tool. */
  clientId: string;
  deploymentId: string;
}

export interface LoopbackPlatform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  jwksUrl: string;
  authLoginUrl: string;
  authTokenUrl: string;
  /** The public JWK the platform publishes (with its `kid`). */
  publicJwk: JWK;
  /** Every request to the authorisation endpoint, in order. */
  authRequests: AuthRequest[];
  /** Every request to the JWKS endpoint (its path), to check caching. */
  jwksFetches: number;
  /** The URL an LMS sends as `openid_configuration` (LTI Dynamic Registration). */
  openidConfigurationUrl: string;
  /** The `registration_token` its registration endpoint requires as a Bearer token. */
  registrationToken: string;
  /** Registrations accepted, in order. */
  registrations: RegistrationRequest[];
  /** Replaces members of the OpenID configuration it serves (a misbehaving platform). */
  configurationOverrides: Record<string, unknown>;
  /** The body for POST /api/lti/platforms. */
  registration(name?: string): Record<string, unknown>;
  /** A signed id_token for a launch. */
  idToken(options: LaunchOptions): Promise<string>;
  /** Signs any payload with this platform's key (or with `other`, a key pair not in its JWKS). */
  sign(payload: JWTPayload, options?: { kid?: string; withUnpublishedKey?: boolean }): Promise<string>;
  close(): Promise<void>;
}

async function keyPair(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** Starts a platform on 127.0.0.1 at a free port. */
export async function startLoopbackPlatform(options: { clientId?: string; deploymentId?: string } = {}): Promise<LoopbackPlatform> {
  const published = await keyPair(`platform-${randomUUID()}`);
  const unpublished = await keyPair(`unpublished-${randomUUID()}`);
  const authRequests: AuthRequest[] = [];
  const registrations: RegistrationRequest[] = [];
  const configurationOverrides: Record<string, unknown> = {};
  const registrationToken = `registration-token-${randomUUID()}`;
  let jwksFetches = 0;

  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/.well-known/openid-configuration') {
      json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        registration_endpoint: `${base}/register`,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid'],
        'https://purl.imsglobal.org/spec/lti-platform-configuration': { product_family_code: 'loopback', version: '1.0' },
        ...configurationOverrides,
      });
      return;
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.headers.authorization !== `Bearer ${registrationToken}`) return json(res, 401, { error: 'invalid registration token' });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const n = registrations.length + 1;
      const answer = { clientId: `dynamic-client-${n}`, deploymentId: `dynamic-deployment-${n}` };
      registrations.push({ authorization: req.headers.authorization, body, ...answer });
      const toolConfiguration = body[TOOL_CONFIGURATION] as Record<string, unknown>;
      json(res, 200, { ...body, client_id: answer.clientId, [TOOL_CONFIGURATION]: { ...toolConfiguration, deployment_id: answer.deploymentId } });
      return;
    }
    if (url.pathname === '/jwks') {
      jwksFetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [published.publicJwk] }));
      return;
    }
    if (url.pathname === '/auth') {
      authRequests.push({ method: req.method ?? 'GET', query: url.searchParams });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('login recorded');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = options.clientId ?? 'tool-client-id';
  const deploymentId = options.deploymentId ?? 'deployment-1';

  async function sign(payload: JWTPayload, opts: { kid?: string; withUnpublishedKey?: boolean } = {}): Promise<string> {
    const key = opts.withUnpublishedKey ? unpublished : published;
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: opts.kid ?? key.kid }).sign(key.privateKey);
  }

  return {
    issuer: base,
    clientId,
    deploymentId,
    jwksUrl: `${base}/jwks`,
    authLoginUrl: `${base}/auth`,
    authTokenUrl: `${base}/token`,
    publicJwk: published.publicJwk,
    authRequests,
    openidConfigurationUrl: `${base}/.well-known/openid-configuration`,
    registrationToken,
    registrations,
    configurationOverrides,
    get jwksFetches() {
      return jwksFetches;
    },
    registration: (name = 'Loopback LMS') => ({
      name,
      issuer: base,
      client_id: clientId,
      auth_login_url: `${base}/auth`,
      auth_token_url: `${base}/token`,
      jwks_url: `${base}/jwks`,
      deployment_ids: [deploymentId],
    }),
    idToken: (o) => {
      // iat from the real clock: the tool checks exp/iat against its own time, as a platform's would be.
      const now = Math.floor(Date.now() / 1000);
      const messageType = o.messageType ?? 'LtiResourceLinkRequest';
      const payload: JWTPayload = {
        iss: base,
        aud: o.clientId ?? clientId,
        azp: o.clientId ?? clientId,
        sub: o.sub ?? 'platform-user-1',
        iat: now,
        exp: now + (o.lifetimeSeconds ?? 300),
        nonce: o.nonce,
        ...o.person,
        [`${LTI_CLAIM}version`]: '1.3.0',
        [`${LTI_CLAIM}message_type`]: messageType,
        [`${LTI_CLAIM}deployment_id`]: o.deploymentId ?? deploymentId,
        [`${LTI_CLAIM}target_link_uri`]: o.targetLinkUri ?? 'http://127.0.0.1/api/lti/launch',
        [`${LTI_CLAIM}roles`]: (o.roles ?? ['Learner']).map((r) => ROLE_URI[r]),
        [`${LTI_CLAIM}context`]: o.context ?? { id: 'context-1', label: 'COS10001', title: 'Intro to Programming' },
        ...(messageType === 'LtiResourceLinkRequest' && { [`${LTI_CLAIM}resource_link`]: o.resourceLink ?? { id: 'resource-link-1' } }),
        ...(o.custom && { [`${LTI_CLAIM}custom`]: o.custom }),
        ...o.claims,
      };
      return sign(payload);
    },
    sign,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/**
 * Verifies a JWT the tool signed (a deep-linking response, a client assertion) as a platform does:
 * RS256 only, the key found by `kid` in the tool's JWKS, `iss` the tool's client_id and `aud` the
 * platform's issuer, and fresh at `at` (the tool's clock, which the tests set).
 */
export async function verifyToolJwt(jwt: string, toolJwks: JSONWebKeySet, expected: { clientId: string; issuer: string; at: Date }) {
  return jwtVerify(jwt, createLocalJWKSet(toolJwks), {
    algorithms: ['RS256'],
    issuer: expected.clientId,
    audience: expected.issuer,
    currentDate: expected.at,
  });
}
