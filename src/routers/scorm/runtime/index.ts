import { router } from '../../../trpc/core.ts';
import { scormRuntimeFile } from './get.ts';

export const scormRuntimeRouter = router({ get: scormRuntimeFile });
