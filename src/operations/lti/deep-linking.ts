// LTI Deep Linking 2.0 (an LtiDeepLinkingRequest launch): the page where an Instructor chooses the
// linked unit's task definitions, and the signed LtiDeepLinkingResponse returned to the platform.
// The launch (launch.ts) validates the request and calls deepLinkingPage.
import type { ILtiContext, ILtiPlatform, IUser } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../trpc/errors.ts';

/** The `https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings` claim. */
export interface DeepLinkingSettings {
  deep_link_return_url: string;
  accept_types: string[];
  accept_presentation_document_targets?: string[];
  accept_multiple?: boolean;
  auto_create?: boolean;
  title?: string;
  text?: string;
  /** Opaque: must be returned unchanged in the response. */
  data?: string;
}

/** A validated deep-linking launch from an Instructor of a linked context. */
export interface DeepLinkingRequest {
  platform: ILtiPlatform;
  deploymentId: string;
  settings: DeepLinkingSettings;
  /** Its `unit` is set: the launch links the context first. */
  context: ILtiContext;
  user: IUser;
  /** The launch's `target_link_uri`: the tool's launch URL the content items point at. */
  targetLinkUri: string;
}

/** The HTML page listing the unit's task definitions to choose from. */
export async function deepLinkingPage(_em: Em, _config: Config, _clock: Clock, _request: DeepLinkingRequest): Promise<string> {
  throw badRequest('Deep linking is not available yet');
}
