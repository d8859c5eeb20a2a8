// A loopback LTI 1.3 platform (an LMS) for the tests: its own RSA keys (jose), a JWKS endpoint, an
// OIDC authorisation endpoint that records the tool's login redirects, an OAuth2 token endpoint that
// checks the tool's client assertion against the tool's JWKS, and helpers that sign id_tokens
// carrying the standard LTI claims. Service endpoints (NRPS, AGS) are added with `handle()`. For LTI
// Dynamic Registration it serves its OpenID configuration and a registration endpoint that records
// the tool's registration; `verifyToolJwt` checks what the tool signs the way a platform would. Register it with `registration()` and launch with
// `idToken()`; the attack tests change one claim or header at a time.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/** A token request the platform answered (or refused, with `refused` saying why). */
export interface TokenRequest {
  form: URLSearchParams;
  scopes: string[];
  refused?: string;
}

/** A request to an endpoint added with `handle()`: its body read whole, and the scopes of its bearer token (none when absent or unknown). */
export interface PlatformRequest {
  req: IncomingMessage;
  url: URL;
  body: string;
  scopes: string[];
}
export type PlatformHandler = (request: PlatformRequest, res: ServerResponse) => void | Promise<void>;

export interface PlatformOptions {
  clientId?: string;
  deploymentId?: string;
  /** The tool's JWKS as the platform fetches it (tests serve it through the app: `api(env, 'GET', '/api/lti/jwks')`). */
  toolJwks?: () => Promise<JSONWebKeySet>;
  /** The platform's clock for the times it checks; the test's clock, so both sides agree. */
  now?: () => Date;
}

/** What the registration endpoint received: the tool's registration (LTI Dynamic Registration). */
export interface RegistrationRequest {
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** What the platform answered: the client_id and deployment_id it gave the tool. */
  clientId: string;
  deploymentId: string;
}

/** What the platform's authorisation endpoint received: the tool's OIDC login redirect. */
export interface AuthRequest {
  method: string;
  query: URLSearchParams;
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
  /** Every request to the token endpoint, in order. */
  tokenRequests: TokenRequest[];
  /** The URL an LMS sends as `openid_configuration` (LTI Dynamic Registration). */
  openidConfigurationUrl: string;
  /** The `registration_token` its registration endpoint requires as a Bearer token. */
  registrationToken: string;
  /** Registrations accepted, in order. */
  registrations: RegistrationRequest[];
  /** Replaces members of the OpenID configuration it serves (a misbehaving platform). */
  configurationOverrides: Record<string, unknown>;
  /** Serves `pathname` (any method) with `handler`: the NRPS and AGS endpoints of a test. */
  handle(pathname: string, handler: PlatformHandler): void;
  /** An address on this platform. */
  url(pathname: string): string;
  /** The body for POST /api/lti/platforms. */
  registration(name?: string): Record<string, unknown>;
  /** A signed id_token for a launch. */
  idToken(options: LaunchOptions): Promise<string>;
  /** Signs any payload with this platform's key (or with `other`, a key pair not in its JWKS). */
  sign(payload: JWTPayload, options?: { kid?: string; withUnpublishedKey?: boolean }): Promise<string>;
  /** Rotates: a new key pair is published beside the old one and signs from now on (a `kid` the tool has not seen). */
  rotateKey(): Promise<void>;
  close(): Promise<void>;
}

async function keyPair(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Starts a platform on 127.0.0.1 at a free port. */
export async function startLoopbackPlatform(options: PlatformOptions = {}): Promise<LoopbackPlatform> {
  let published = await keyPair(`platform-${randomUUID()}`);
  const publishedKeys = [published.publicJwk];
  const unpublished = await keyPair(`unpublished-${randomUUID()}`);
  const authRequests: AuthRequest[] = [];
  const tokenRequests: TokenRequest[] = [];
  const accessTokens = new Map<string, string[]>();
  const handlers = new Map<string, PlatformHandler>();
  const now = options.now ?? (() => new Date());
  const registrations: RegistrationRequest[] = [];
  const configurationOverrides: Record<string, unknown> = {};
  const registrationToken = `registration-token-${randomUUID()}`;
  let jwksFetches = 0;

  /** The token endpoint: a client-credentials grant whose assertion the tool signed (RFC 7523). */
  async function token(body: string, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(body);
    const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const refuse = (why: string) => {
      tokenRequests.push({ form, scopes, refused: why });
      json(res, 400, { error: 'invalid_client', error_description: why });
    };
    if (form.get('grant_type') !== 'client_credentials') return refuse('grant_type');
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') return refuse('client_assertion_type');
    if (!options.toolJwks) return refuse('the platform does not know the tool keys');
    try {
      // The tool is known by the client_id given in the options or by one its Dynamic Registrations were answered.
      const known = [clientId, ...registrations.map((r) => r.clientId)];
      const { payload } = await jwtVerify(form.get('client_assertion') ?? '', createLocalJWKSet(await options.toolJwks()), {
        algorithms: ['RS256'],
        issuer: known,
        audience: `${base}/token`,
        currentDate: now(),
        requiredClaims: ['jti', 'iat', 'exp', 'sub'],
      });
      if (payload.sub !== payload.iss) throw new Error('unexpected "sub" claim value');
    } catch (error) {
      return refuse(`client_assertion: ${(error as Error).message}`);
    }
    const accessToken = `access-${randomUUID()}`;
    accessTokens.set(accessToken, scopes);
    tokenRequests.push({ form, scopes });
    json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') });
  }

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
      const text = await readBody(req);
      if (req.headers.authorization !== `Bearer ${registrationToken}`) return json(res, 401, { error: 'invalid registration token' });
      const body = JSON.parse(text) as Record<string, unknown>;
      const n = registrations.length + 1;
      const answer = { clientId: `dynamic-client-${n}`, deploymentId: `dynamic-deployment-${n}` };
      registrations.push({ authorization: req.headers.authorization, body, ...answer });
      const toolConfiguration = body[TOOL_CONFIGURATION] as Record<string, unknown>;
      json(res, 200, { ...body, client_id: answer.clientId, [TOOL_CONFIGURATION]: { ...toolConfiguration, deployment_id: answer.deploymentId } });
      return;
    }
    const handler = handlers.get(url.pathname);
    if (handler || url.pathname === '/token') {
      const body = await readBody(req);
      if (!handler) return token(body, res);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      try {
        await handler({ req, url, body, scopes: (bearer && accessTokens.get(bearer)) || [] }, res);
      } catch (error) {
        if (!res.headersSent) json(res, 500, { error: (error as Error).message });
      }
      return;
    }
    if (url.pathname === '/jwks') {
      jwksFetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: publishedKeys }));
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
    tokenRequests,
    handle: (pathname, handler) => {
      handlers.set(pathname, handler);
    },
    url: (pathname) => `${base}${pathname}`,
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
    rotateKey: async () => {
      published = await keyPair(`platform-${randomUUID()}`);
      publishedKeys.push(published.publicJwk);
    },
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
