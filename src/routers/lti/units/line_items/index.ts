import { router } from '../../../../trpc/core.ts';
import { createLineItem } from './create.ts';
import { listLineItems } from './list.ts';

/** /api/lti/units/{unit_id}/line_items */
export const ltiLineItemsRouter = router({ list: listLineItems, create: createLineItem });
