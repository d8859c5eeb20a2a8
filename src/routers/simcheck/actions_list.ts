import { z } from 'zod';
import { SimcheckAction } from '../../../schema/index.ts';
import { actionOut, actionsListInput, toAction } from './schemas.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';

const REFUSED = 'Not authorised access similarity-check actions';

export const listSimcheckActions = systemQuery(actionsListInput, {
  action: 'admin_units',
  orInUnit: { field: 'unit_id', action: 'add_task_def' },
  refused: REFUSED,
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/simcheck_actions',
      tags: ['Similarity checks'],
      summary: 'Calls to the similarity service, latest change first',
      description:
        "Incomplete actions unless `show_complete`; `limit` (50) and `offset` (0) page them. All of them for an Admin; a unit's for its Convenor with `unit_id` (403 otherwise; 404 for an unknown unit).",
    },
    rest: { aliases: [{ method: 'GET', path: '/api/tii_actions' }] },
  })
  .output(z.array(actionOut))
  .query(async ({ ctx, input }) => {
    const where = {
      ...(input.unit_id !== undefined ? { unit: input.unit_id } : {}),
      ...(input.show_complete ? {} : { complete: false }),
    };
    const rows = await ctx.em.find(SimcheckAction, where, { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset });
    return rows.map(toAction);
  });
