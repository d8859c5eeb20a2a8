import { UnitRole } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { roleFromId, roleFromName, staffRoleOf } from '../../policy/index.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { changeStaffRole } from '../../operations/unit_roles/change-staff.ts';
import { staffMemberOut, updateUnitRoleInput } from './schemas.ts';
import { staffMember } from '../../operations/unit_roles/staff-rows.ts';

export const updateUnitRole = unitMutation(updateUnitRoleInput, {
  unitOf: UnitRole,
  action: 'employ_staff',
  orSystem: 'admin_units',
  refused: (id) => `Couldn't find UnitRole with id=${id}`,
})
  .meta(
    route('PUT', '/api/unit_roles/{id}', 'Unit roles', "Change a staff member's role (unit Convenor, Admin)", {
      description:
        '`unit_role[role_id]` is 2 (Tutor) or 3 (Convenor), as the web client sends; `unit_role[role]` by name is taken too. A unit keeps ' +
        'at least one convenor (403) and its main convenor stays a convenor (400).',
    }),
  )
  .output(staffMemberOut)
  .mutation(async ({ ctx, input }) => {
    const unitRole = ctx.record;
    const { role_id, role } = input.unit_role;
    const named = role_id !== undefined ? roleFromId(role_id) : role !== undefined ? roleFromName(role) : null;
    if (role_id === undefined && role === undefined) throw badRequest('unit_role[role_id] is missing');
    if (!named) throw badRequest(role_id !== undefined ? 'unit_role[role_id] is invalid' : `unit_role[role] is invalid`);
    const staffRole = staffRoleOf(named);
    if (!('role' in staffRole)) throw staffRole.status === 403 ? forbidden(staffRole.message) : badRequest(staffRole.message);
    await changeStaffRole(ctx.em, unitRole, staffRole.role);
    return (await staffMember(ctx.em, unitRole.id))!;
  });
