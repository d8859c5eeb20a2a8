import { router } from '../../../../trpc/core.ts';
import { listPassbacks } from './list.ts';
import { requeuePassbacks } from './requeue.ts';

/** /api/lti/units/{unit_id}/passbacks */
export const ltiPassbacksRouter = router({ list: listPassbacks, requeue: requeuePassbacks });
