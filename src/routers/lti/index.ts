import { router } from '../../trpc/core.ts';
import { getJwks } from './jwks.ts';
import { ltiKeysRouter } from './keys/index.ts';
import { ltiLogin } from './login.ts';
import { ltiPlatformsRouter } from './platforms/index.ts';
import { ltiUnitsRouter } from './units/index.ts';

export const ltiRouter = router({ jwks: getJwks, keys: ltiKeysRouter, login: ltiLogin, platforms: ltiPlatformsRouter, units: ltiUnitsRouter });
