import type { SystemRole } from '../../../../schema/enums.ts';
import type { IUnit } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { canInUnit, type UnitRoleName } from '../../../policy/index.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { CANNOT_CHANGE_TASK_ALIGNMENT, CANNOT_CHANGE_UNIT_ALIGNMENT } from './messages.ts';
import { authorizeOnProject, findAlignment } from '../../../operations/units/learning_alignments/change-alignments.ts';
import type { AlignmentRow } from '../../../operations/units/learning_alignments/alignment-row.ts';

/**
 * The alignment to change or delete: a student's self-assessment by that student or staff of the
 * unit, the unit's own by its Convenor or an Admin (403 otherwise; 404 for one of another unit).
 */
export async function alignmentToChange(
  em: Em,
  ctx: { user: { id: number; systemRole: SystemRole }; unit: IUnit; unitRole: UnitRoleName | null },
  id: number,
): Promise<AlignmentRow> {
  const { row, studentId } = await findAlignment(em, ctx.unit.id, id);
  if (studentId === null) {
    if (!canInUnit(ctx.unitRole, 'update')) throw forbidden(CANNOT_CHANGE_UNIT_ALIGNMENT);
  } else {
    await authorizeOnProject(em, ctx.user, ctx.unit, studentId, 'make_submission', CANNOT_CHANGE_TASK_ALIGNMENT);
  }
  return row;
}
