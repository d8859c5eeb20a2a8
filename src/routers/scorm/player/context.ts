import { TaskDefinition, type ITaskDefinition } from '../../../../schema/index.ts';
import { findOr404 } from '../../../db/lookup.ts';
import { playerContext } from '../../../operations/scorm/player/player-context.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { playerContextInput, playerContextOut } from './schemas.ts';

export const scormPlayerContext = unitQuery(playerContextInput, {
  action: 'get_unit',
  refused: 'You are not authorised to take or review tests in this unit',
  recordField: 'task_def_id',
  unitOf: async (em, id) => {
    const record = (await findOr404(em, TaskDefinition, id)) as ITaskDefinition;
    return { record, unitId: (record.unit as unknown as { id: number }).id };
  },
})
  .meta(
    route(
      'GET',
      '/api/scorm/player/{task_def_id}/context',
      'SCORM',
      "What the SCORM player page shows: the test's settings, the project and the attempts left",
      {
        description:
          "The caller's own project in the unit, or with `project_id` a student's (staff of the unit; 403 otherwise). " +
          '`attempts_left` is null when attempts are unlimited; starting an attempt may still be refused with its reason. Anyone who may read the unit.',
      },
    ),
  )
  .output(playerContextOut)
  .query(({ ctx, input }) => playerContext(ctx.em, ctx.user, ctx.unit, ctx.unitRole, ctx.record, { project_id: input.project_id }));
