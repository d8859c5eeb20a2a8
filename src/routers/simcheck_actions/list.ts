import { z } from 'zod';
import { listSimcheckActions as listActions } from '../../operations/simcheck_actions/action-log.ts';
import { route } from '../../trpc/route.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';
import { actionOut, actionsListInput } from './schemas.ts';

export const listSimcheckActions = systemQuery(actionsListInput, {
  action: 'admin_units',
  orInUnit: { field: 'unit_id', action: 'add_task_def' },
  refused: 'Not authorised access similarity-check actions',
})
  .meta(
    route('GET', '/api/simcheck_actions', 'Similarity checks', 'Calls to the similarity service, latest change first', {
      description:
        'Incomplete actions unless `show_complete`; `limit` (50) and `offset` (0) page them. ' +
        "All of them for an Admin; a unit's for its Convenor with `unit_id` (403 otherwise; 404 for an unknown unit).",
      rest: { aliases: [{ method: 'GET', path: '/api/tii_actions' }] },
    }),
  )
  .output(z.array(actionOut))
  .query(({ ctx, input }) => listActions(ctx.em, input));
