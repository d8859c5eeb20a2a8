import { User } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { roleFromName, staffRoleOf } from '../../policy/index.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { findOr404 } from '../../db/lookup.ts';
import { employStaff } from '../../operations/unit_roles/change-staff.ts';
import { createUnitRoleInput, staffMemberOut } from './schemas.ts';
import { staffMember } from '../../operations/unit_roles/staff-rows.ts';

export const createUnitRole = unitMutation(createUnitRoleInput, {
  action: 'employ_staff',
  orSystem: 'admin_units',
  refused: (id) => `Couldn't find Unit with id=${id}`,
})
  .meta(
    route('POST', '/api/unit_roles', 'Unit roles', 'Employ a user as staff of a unit (unit Convenor, Admin)', {
      description: '`role` is Tutor or Convenor; a user already on the staff keeps their role and is answered with it. See docs/api/units.md.',
    }),
  )
  .output(staffMemberOut)
  .mutation(async ({ ctx, input }) => {
    await findOr404(ctx.em, User, input.user_id);
    const named = roleFromName(input.role);
    if (!named) throw forbidden(`Couldn't find Role with name=${input.role}`);
    const staffRole = staffRoleOf(named);
    if (!('role' in staffRole)) throw staffRole.status === 403 ? forbidden(staffRole.message) : badRequest(staffRole.message);
    const { id } = await employStaff(ctx.em, { unitId: ctx.unit.id, userId: input.user_id, role: staffRole.role });
    return (await staffMember(ctx.em, id))!;
  });
