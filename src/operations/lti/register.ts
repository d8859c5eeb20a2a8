// LTI Dynamic Registration 1.0: an Admin pastes the tool's registration URL (LTI_TOOL_URL +
// /api/lti/register) into the LMS, which opens it with `openid_configuration` and
// `registration_token`. The page asks an Admin to confirm with their username and password (the web
// client's tokens live in its own storage, so this page cannot see a signed-in session); the
// confirmation fetches the platform's configuration, posts the tool's registration, stores the
// platform and tells the LMS the window may close. Nothing is stored unless every step succeeds.
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import { escapeHtml, htmlPage } from '../../lib/html.ts';
import { can } from '../../policy/index.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { checkSignIn, type SignInPlace } from '../auth/sign-in.ts';
import { ltiToolUrl } from './configured.ts';
import { fetchOpenIdConfiguration, platformFields, postRegistration } from './platform-configuration.ts';
import { createPlatform, isPlatformUrl, type PlatformOut } from './platforms.ts';
import { toolRegistration } from './tool-registration.ts';

export const REGISTER_PATH = '/api/lti/register';

export interface RegistrationStart {
  openid_configuration: string;
  registration_token?: string;
}

export interface RegistrationConfirmation extends RegistrationStart {
  username: string;
  password: string;
}

/** The platform's configuration URL must be https (http only on this machine), like every platform URL. */
function checkConfigurationUrl(url: string): void {
  if (!isPlatformUrl(url)) throw badRequest('openid_configuration must be an https URL (http only for 127.0.0.1 or localhost)');
}

/** The confirmation page: what is being registered, and the Admin's credentials. */
export function registrationPage(config: Config, input: RegistrationStart): string {
  const toolUrl = ltiToolUrl(config);
  checkConfigurationUrl(input.openid_configuration);
  const host = new URL(input.openid_configuration).host;
  const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`);
  return htmlPage(
    config.externalName,
    'Register with your LMS',
    `<p>The LMS at <strong>${escapeHtml(host)}</strong> asks to register ${escapeHtml(config.externalName)} as an LTI tool.
An Admin of ${escapeHtml(config.externalName)} confirms with their username and password.</p>
<form method="post" action="${escapeHtml(`${toolUrl}${REGISTER_PATH}`)}">
${hidden('openid_configuration', input.openid_configuration)}${hidden('registration_token', input.registration_token)}
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Register</button>
</form>
<p>Admins who sign in only through single sign-on register the LMS with <code>POST /api/lti/platforms</code> instead.</p>`,
  );
}

/** The page that tells the LMS the registration is done (it closes its dialog on this message). */
function closePage(product: string, platform: PlatformOut): string {
  return htmlPage(
    product,
    'Registered',
    `<p>${escapeHtml(platform.name)} is registered (client_id ${escapeHtml(platform.client_id)}). You can close this window.</p>
<script>(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*')</script>`,
  );
}

/**
 * Checks the Admin, registers the tool with the platform and stores the platform. Not in a
 * transaction: a failed sign-in must stay counted, and the only write is the platform's row.
 */
export async function register(em: Em, config: Config, place: SignInPlace, input: RegistrationConfirmation): Promise<string> {
  const toolUrl = ltiToolUrl(config);
  checkConfigurationUrl(input.openid_configuration);
  const { user } = await checkSignIn(em, { username: input.username, password: input.password }, place);
  if (!can(user, 'admin_lti')) throw forbidden('Only an Admin can register an LMS');

  const configuration = await fetchOpenIdConfiguration(input.openid_configuration);
  const { clientId, deploymentId } = await postRegistration(
    configuration.registration_endpoint,
    input.registration_token,
    toolRegistration(toolUrl, config.externalName),
  );
  const platform = await createPlatform(em, config, platformFields(configuration, clientId, deploymentId));
  return closePage(config.externalName, platform);
}
