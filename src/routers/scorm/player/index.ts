import { router } from '../../../trpc/core.ts';
import { scormPlayerContext } from './context.ts';
import { scormPlayerPage } from './page.ts';

export const scormPlayerRouter = router({ page: scormPlayerPage, context: scormPlayerContext });
