import { UnitRole } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { roleIdOf } from '../../policy/index.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { removeStaff } from '../../operations/unit_roles/change-staff.ts';
import { unitRoleDeletedOut, unitRoleIdInput } from './schemas.ts';

export const deleteUnitRole = unitMutation(unitRoleIdInput, {
  unitOf: UnitRole,
  action: 'employ_staff',
  orSystem: 'admin_units',
  refused: (id) => `Couldn't find UnitRole with id=${id}`,
})
  .meta(
    route('DELETE', '/api/unit_roles/{id}', 'Unit roles', 'Remove a staff member from a unit (unit Convenor, Admin)', {
      description: "The unit's main convenor cannot be removed (400) until another convenor is made main convenor. Their tutorials are left without a tutor.",
      rest: { status: 204 },
    }),
  )
  .output(unitRoleDeletedOut)
  .mutation(async ({ ctx }) => {
    const { record: unitRole, unit } = ctx;
    const gone = {
      id: unitRole.id,
      user_id: (unitRole.user as unknown as { id: number }).id,
      unit_id: unit.id,
      role_id: roleIdOf(unitRole.role),
      tutorial_id: null,
      created_at: unitRole.createdAt.toISOString(),
      updated_at: unitRole.updatedAt.toISOString(),
    };
    await removeStaff(ctx.em, unitRole);
    return gone;
  });
