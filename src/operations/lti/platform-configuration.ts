// The platform side of LTI Dynamic Registration 1.0: its OpenID configuration (fetched from the
// `openid_configuration` URL it sent) and its answer to the tool's registration. Whatever the
// platform answers is checked here before anything is stored; a platform that cannot be reached or
// answers something unusable is a 502 naming what went wrong.
import { z } from 'zod';
import { LtiPlatformError, type LtiRequest, ltiFetch } from '../../adapters/lti-http.ts';
import { badGateway, describeZodError } from '../../lib/errors.ts';
import { isPlatformUrl, PLATFORM_URL_RULE, type PlatformFields } from './platforms.ts';
import { TOOL_CONFIGURATION } from './tool-registration.ts';

const PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';

const platformUrl = (max = 2048) => z.string().max(max).refine(isPlatformUrl, { message: PLATFORM_URL_RULE });
const identifier = () =>
  z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().min(1, { message: 'is empty' }).max(255));

const openIdConfiguration = z.object({
  issuer: platformUrl(1024),
  authorization_endpoint: platformUrl(),
  token_endpoint: platformUrl(),
  jwks_uri: platformUrl(),
  registration_endpoint: platformUrl(),
  [PLATFORM_CONFIGURATION]: z.object({ product_family_code: z.string().max(100).optional() }).optional(),
});
export type OpenIdConfiguration = z.infer<typeof openIdConfiguration>;

const registrationAnswer = z.object({
  client_id: identifier(),
  [TOOL_CONFIGURATION]: z.object({ deployment_id: identifier().optional() }).optional(),
});

/** A configuration or a registration answer is small: a tighter bound than a roster page's. */
const LIMITS = { timeoutMs: 10_000, maxBytes: 256 * 1024, requireJson: true };

async function exchange(url: string, request: LtiRequest, what: string): Promise<unknown> {
  try {
    const { json } = await ltiFetch(url, { ...LIMITS, ...request });
    if (json === undefined) throw badGateway(`${what}: the answer is empty`);
    return json;
  } catch (error) {
    if (error instanceof LtiPlatformError) throw badGateway(`${what}: ${error.message}`);
    throw error;
  }
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badGateway(`${what} is not usable: ${describeZodError(result.error)}`);
  return result.data;
}

/** The platform's configuration; its issuer must be on the origin of the URL it came from, as the specification requires. */
export async function fetchOpenIdConfiguration(url: string): Promise<OpenIdConfiguration> {
  const what = "The platform's OpenID configuration";
  const configuration = parsed(openIdConfiguration, await exchange(url, { method: 'GET' }, what), what);
  if (new URL(configuration.issuer).origin !== new URL(url).origin) {
    throw badGateway(`${what} names issuer ${configuration.issuer}, which is not on the origin of ${url}`);
  }
  return configuration;
}

/** Posts the tool's registration; the client_id and deployment_id the platform gave the tool. */
export async function postRegistration(endpoint: string, registrationToken: string | undefined, body: unknown) {
  const what = "The platform's answer to the registration";
  const answer = parsed(
    registrationAnswer,
    await exchange(endpoint, { method: 'POST', bearer: registrationToken, body: { json: body } }, "The platform's registration endpoint"),
    what,
  );
  const deploymentId = answer[TOOL_CONFIGURATION]?.deployment_id;
  if (!deploymentId) throw badGateway(`${what} has no deployment_id: register the platform with POST /api/lti/platforms instead`);
  return { clientId: answer.client_id, deploymentId };
}

/** The platform as stored: named by its product (e.g. "moodle") and host, else by its issuer. */
export function platformFields(configuration: OpenIdConfiguration, clientId: string, deploymentId: string): PlatformFields {
  const product = configuration[PLATFORM_CONFIGURATION]?.product_family_code;
  const name = product ? `${product} (${new URL(configuration.issuer).host})` : configuration.issuer;
  return {
    name: name.slice(0, 255),
    issuer: configuration.issuer,
    client_id: clientId,
    auth_login_url: configuration.authorization_endpoint,
    auth_token_url: configuration.token_endpoint,
    jwks_url: configuration.jwks_uri,
    deployment_ids: [deploymentId],
  };
}
