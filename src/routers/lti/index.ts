import { router } from '../../trpc/core.ts';
import { ltiDeepLink } from './deep-link.ts';
import { getJwks } from './jwks.ts';
import { ltiKeysRouter } from './keys/index.ts';
import { ltiLogin } from './login.ts';
import { ltiPlatformsRouter } from './platforms/index.ts';
import { ltiRegisterRouter } from './register/index.ts';

export const ltiRouter = router({
  deepLink: ltiDeepLink,
  jwks: getJwks,
  keys: ltiKeysRouter,
  login: ltiLogin,
  platforms: ltiPlatformsRouter,
  register: ltiRegisterRouter,
});
