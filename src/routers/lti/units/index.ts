import { router } from '../../../trpc/core.ts';
import { ltiLineItemsRouter } from './line_items/index.ts';
import { ltiPassbacksRouter } from './passbacks/index.ts';
import { syncRoster } from './sync-roster.ts';

/** /api/lti/units/{unit_id}/... */
export const ltiUnitsRouter = router({ lineItems: ltiLineItemsRouter, passbacks: ltiPassbacksRouter, syncRoster });
