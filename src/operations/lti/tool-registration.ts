// What the tool tells a platform about itself in LTI Dynamic Registration 1.0 (an OpenID Connect
// client registration with the `lti-tool-configuration` claim): its URLs under LTI_TOOL_URL, the
// messages it takes and the services it uses.
import { LAUNCH_PATH } from './login.ts';

export const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

/** AGS (line items, results, scores) for grade passback, NRPS for the roster. */
export const TOOL_SCOPES = [
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
];

/** The identity claims a launch needs to match or create the user (docs/lti.md). */
const CLAIMS = ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'];

/** The registration request's body; `toolUrl` is LTI_TOOL_URL (no trailing slash). */
export function toolRegistration(toolUrl: string, productName: string) {
  const launch = `${toolUrl}${LAUNCH_PATH}`;
  return {
    application_type: 'web',
    client_name: productName,
    initiate_login_uri: `${toolUrl}/api/lti/login`,
    redirect_uris: [launch],
    jwks_uri: `${toolUrl}/api/lti/jwks`,
    token_endpoint_auth_method: 'private_key_jwt',
    grant_types: ['implicit', 'client_credentials'],
    response_types: ['id_token'],
    scope: TOOL_SCOPES.join(' '),
    [TOOL_CONFIGURATION]: {
      domain: new URL(toolUrl).host,
      target_link_uri: launch,
      claims: CLAIMS,
      messages: [
        { type: 'LtiResourceLinkRequest', target_link_uri: launch, label: productName },
        { type: 'LtiDeepLinkingRequest', target_link_uri: launch, label: `${productName} tasks` },
      ],
    },
  };
}
