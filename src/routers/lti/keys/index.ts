import { router } from '../../../trpc/core.ts';
import { rotateKeys } from './rotate.ts';

export const ltiKeysRouter = router({ rotate: rotateKeys });
