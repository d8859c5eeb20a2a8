import { router } from '../../trpc/core.ts';
import { getJwks } from './jwks.ts';
import { ltiKeysRouter } from './keys/index.ts';

export const ltiRouter = router({ jwks: getJwks, keys: ltiKeysRouter });
