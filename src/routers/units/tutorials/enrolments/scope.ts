// Loads what a tutorial change names (the unit, its project, its tutorial) in the original's order,
// refusing through the policy tables: an unknown unit or a project outside it is 404, a caller
// without `project :change_tutorial` is 403, and an unknown tutorial abbreviation is 403.
import type { SystemRole } from '../../../../../schema/enums.ts';
import { Project, Tutorial, Unit, type IProject, type ITutorial, type IUnit } from '../../../../../schema/index.ts';
import type { Em } from '../../../../db/orm.ts';
import { canInProject, canInUnit, roleInProject, roleInUnit } from '../../../../policy/index.ts';
import { forbidden, notFound } from '../../../../trpc/errors.ts';
import { findOr404 } from '../../../lookup.ts';

export interface TutorialChange {
  unit: IUnit;
  project: IProject;
  tutorial: ITutorial;
  /** The caller's unit role allows `exceed_capacity` (staff; never a student). */
  mayExceedCapacity: boolean;
}

export async function loadTutorialChange(
  em: Em,
  user: { id: number; systemRole: SystemRole },
  input: { unit_id: number; tutorial_abbr: string; project_id: number },
  options: { refused: string; enrolledOnly: boolean },
): Promise<TutorialChange> {
  const unit = await findOr404(em, Unit, input.unit_id);
  const project = await em.findOne(Project, { id: input.project_id, unit: unit.id, ...(options.enrolledOnly ? { enrolled: true } : {}) });
  if (!project) throw notFound('Unable to find requested Project');
  const role = await roleInProject(em, user, { userId: (project.user as unknown as { id: number }).id, unitId: unit.id });
  if (!canInProject(role, 'change_tutorial', unit)) throw forbidden(options.refused);
  const tutorial = await em.findOne(Tutorial, { unit: unit.id, abbreviation: input.tutorial_abbr });
  if (!tutorial) throw forbidden(`No tutorial with abbreviation ${input.tutorial_abbr} exists for the unit`);
  const mayExceedCapacity = canInUnit(await roleInUnit(em, user, unit.id), 'exceed_capacity');
  return { unit, project, tutorial, mayExceedCapacity };
}
