import { UnitRole } from '../../../schema/index.ts';
import { roleIdOf } from '../../domain/staff.ts';
import { authedMutation } from '../../trpc/core.ts';
import { requireInUnit } from '../../trpc/unit-access.ts';
import { findOr404 } from '../lookup.ts';
import { removeStaff } from './operations.ts';
import { unitRoleDeletedOut, unitRoleIdInput } from './schemas.ts';

export const deleteUnitRole = authedMutation
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/unit_roles/{id}',
      tags: ['Unit roles'],
      summary: 'Remove a staff member from a unit (unit Convenor, Admin)',
      description: "The unit's main convenor cannot be removed (400) until another convenor is made main convenor. Their tutorials are left without a tutor.",
    },
    rest: { status: 204 },
  })
  .input(unitRoleIdInput)
  .output(unitRoleDeletedOut)
  .mutation(async ({ ctx, input }) => {
    const unitRole = await findOr404(ctx.em, UnitRole, input.id);
    const unitId = (unitRole.unit as unknown as { id: number }).id;
    await requireInUnit(ctx.em, ctx.user, unitId, { action: 'employ_staff', orSystem: 'admin_units', refused: `Couldn't find UnitRole with id=${input.id}` });
    const gone = {
      id: unitRole.id,
      user_id: (unitRole.user as unknown as { id: number }).id,
      unit_id: unitId,
      role_id: roleIdOf(unitRole.role),
      tutorial_id: null,
      created_at: unitRole.createdAt.toISOString(),
      updated_at: unitRole.updatedAt.toISOString(),
    };
    await removeStaff(ctx.em, unitRole);
    return gone;
  });
