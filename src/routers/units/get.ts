import { unitQuery } from '../../trpc/scopes/index.ts';
import { route } from '../../trpc/route.ts';
import { unitDetail } from '../../operations/units/unit-detail.ts';
import { unitIdInput, unitOut } from './schemas.ts';

export const getUnit = unitQuery(unitIdInput, {
  field: 'id',
  action: 'get_unit',
  orSystem: 'admin_units',
  refused: (id) => `Couldn't find Unit with id=${id}`,
})
  .meta(
    route('GET', '/api/units/{id}', 'Units', 'The full unit with its outcomes, streams, staff, tutorials, task definitions, alignments and groups', {
      description:
        'For its staff and enrolled students, and admins. Students do not see staff-only fields (sync and notification settings, the draft ' +
        "task definition, upload check settings). A fixed number of queries whatever the unit's size.",
    }),
  )
  .output(unitOut)
  .query(({ ctx }) => unitDetail(ctx.em, ctx.unit.id, ctx.unitRole, ctx.storage));
