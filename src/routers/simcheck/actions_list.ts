import { z } from 'zod';
import { SimcheckAction, Unit } from '../../../schema/index.ts';
import { can, canInUnit, roleInUnit } from '../../policy/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { forbidden, notFound } from '../../trpc/errors.ts';
import { actionOut, actionsListInput, toAction } from './schemas.ts';

const REFUSED = 'Not authorised access similarity-check actions';

export const listSimcheckActions = authedProcedure
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
  .input(actionsListInput)
  .output(z.array(actionOut))
  .query(async ({ ctx, input }) => {
    if (input.unit_id !== undefined && !(await ctx.em.findOne(Unit, { id: input.unit_id }, { fields: ['id'] })))
      throw notFound('Unable to find requested Unit');
    const allowed =
      can(ctx.user, 'admin_units') || (input.unit_id !== undefined && canInUnit(await roleInUnit(ctx.em, ctx.user, input.unit_id), 'add_task_def'));
    if (!allowed) throw forbidden(REFUSED);
    const where = {
      ...(input.unit_id !== undefined ? { unit: input.unit_id } : {}),
      ...(input.show_complete ? {} : { complete: false }),
    };
    const rows = await ctx.em.find(SimcheckAction, where, { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset });
    return rows.map(toAction);
  });
