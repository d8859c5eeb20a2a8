import { router } from '../../../trpc/core.ts';
import { syncRoster } from './sync-roster.ts';

export const ltiUnitsRouter = router({ syncRoster });
