// GET /api/scorm/player/{task_def_id}/context: what the player page needs before it offers start,
// resume or review, in one call: the test's settings, the project whose attempts it shows (the
// caller's own, or with `project_id` a student's for staff) and how many attempts are left.
// The attempt routes still decide (a refused start answers the server's reason); this only shows.
import { sql } from 'kysely';
import type { ITaskDefinition, IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { forbidden, notFound } from '../../../lib/errors.ts';
import { canInProject, canInUnit, roleInProject, type UnitRoleName } from '../../../policy/index.ts';

export interface PlayerContextInput {
  project_id?: number;
}

export interface PlayerContext {
  task_definition: {
    id: number;
    abbreviation: string;
    name: string;
    scorm_enabled: boolean;
    has_scorm_data: boolean;
    scorm_version: string | null;
    scorm_launch_file: string | null;
    scorm_allow_review: boolean;
    scorm_attempt_limit: number;
  };
  unit: { id: number; code: string; name: string };
  /** Staff of the unit: they review and override, and never start attempts here. */
  staff: boolean;
  project: { id: number; username: string; student_name: string } | null;
  /** Attempts allowed: the limit plus the task's granted extensions; 0 means unlimited. */
  attempt_limit: number;
  attempts_used: number;
  /** Null when attempts are not limited. */
  attempts_left: number | null;
}

interface ProjectRow {
  id: number;
  user_id: number;
  username: string;
  first_name: string;
  last_name: string;
  scorm_extensions: number | null;
  attempts: number;
}

/** The project with its student and this definition's task: extensions and attempts, one statement. */
function projectRow(em: Em, definitionId: number, where: { projectId: number; unitId: number } | { userId: number; unitId: number }) {
  const query = sql<ProjectRow>`select p.id, p.user_id, u.username, u.first_name, u.last_name, t.scorm_extensions,
      (select count(*)::int from test_attempts a where a.task_id = t.id) as attempts
    from projects p join users u on u.id = p.user_id
    left join tasks t on t.project_id = p.id and t.task_definition_id = ${definitionId}
    where p.unit_id = ${where.unitId} and ${'projectId' in where ? sql`p.id = ${where.projectId}` : sql`p.user_id = ${where.userId}`}
    limit 1`;
  return query.execute(db(em)).then((r) => r.rows[0]);
}

export async function playerContext(
  em: Em,
  caller: { id: number },
  unit: IUnit,
  unitRole: UnitRoleName | null,
  definition: ITaskDefinition,
  input: PlayerContextInput,
): Promise<PlayerContext> {
  const staff = canInUnit(unitRole, 'see_staff_fields');
  let row: ProjectRow | undefined;
  if (input.project_id !== undefined) {
    row = await projectRow(em, definition.id, { projectId: input.project_id, unitId: unit.id });
    if (!row) throw notFound('Unable to find requested Project');
    const role = await roleInProject(em, caller, { userId: row.user_id, unitId: unit.id });
    if (!canInProject(role, 'get_submission', unit)) throw forbidden("You are not authorised to see this student's test attempts");
  } else if (!staff) {
    row = await projectRow(em, definition.id, { userId: caller.id, unitId: unit.id });
  }
  const limit = definition.scormAttemptLimit === 0 ? 0 : definition.scormAttemptLimit + (row?.scorm_extensions ?? 0);
  const used = row?.attempts ?? 0;
  return {
    task_definition: {
      id: definition.id,
      abbreviation: definition.abbreviation,
      name: definition.name,
      scorm_enabled: definition.scormEnabled,
      has_scorm_data: definition.scormVersion !== null && definition.scormVersion !== undefined,
      scorm_version: definition.scormVersion ?? null,
      scorm_launch_file: definition.scormLaunchFile ?? null,
      scorm_allow_review: definition.scormAllowReview,
      scorm_attempt_limit: definition.scormAttemptLimit,
    },
    unit: { id: unit.id, code: unit.code, name: unit.name },
    staff,
    project: row ? { id: row.id, username: row.username, student_name: `${row.first_name} ${row.last_name}` } : null,
    attempt_limit: limit,
    attempts_used: used,
    attempts_left: limit === 0 ? null : Math.max(0, limit - used),
  };
}
