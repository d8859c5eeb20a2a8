import { router } from '../../trpc/core.ts';
import { ltiDeepLink } from './deep-link.ts';
import { getJwks } from './jwks.ts';
import { ltiKeysRouter } from './keys/index.ts';
import { ltiLaunch, ltiLaunchLink } from './launch.ts';
import { ltiLogin } from './login.ts';
import { ltiPlatformsRouter } from './platforms/index.ts';
import { ltiRegisterRouter } from './register/index.ts';
import { ltiUnitsRouter } from './units/index.ts';

export const ltiRouter = router({
  deepLink: ltiDeepLink,
  jwks: getJwks,
  keys: ltiKeysRouter,
  launch: ltiLaunch,
  launchLink: ltiLaunchLink,
  login: ltiLogin,
  platforms: ltiPlatformsRouter,
  register: ltiRegisterRouter,
  units: ltiUnitsRouter,
});
