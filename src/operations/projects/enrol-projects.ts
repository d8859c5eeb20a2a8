// Enrolment operations shared by POST /api/projects, PUT /api/projects/{id}, the unit CSV
// uploads and the demo seed. Each takes many projects at once and issues a fixed number of
// statements, so a CSV of a thousand students costs the same few round trips as one.
import { sql } from 'kysely';
import { Project, type IProject } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { EMPTY_STATS } from '../../domain/project-stats.ts';

export interface EnrolmentRequest {
  userId: number;
  /** The campus to study at; null for none. */
  campusId: number | null;
}

export type EnrolmentOutcome = 'created' | 'reenrolled' | 'unchanged';

export interface EnrolmentResult {
  userId: number;
  projectId: number;
  outcome: EnrolmentOutcome;
  /** An existing project's campus was replaced. */
  campusChanged: boolean;
}

/**
 * Enrols each user in the unit: a new project (target grade 0, empty stats), or a withdrawn one
 * enrolled again with the campus given. An enrolled one is left alone, unless `updateCampus`
 * (the CSV import) replaces its campus when it differs. A few statements whatever the number of
 * users. Requests must name distinct users.
 */
export async function enrolProjects(
  em: Em,
  unitId: number,
  requests: EnrolmentRequest[],
  options: { updateCampus?: boolean } = {},
): Promise<EnrolmentResult[]> {
  if (requests.length === 0) return [];
  const existing = await db(em)
    .selectFrom('projects')
    .select(['id', 'user_id', 'enrolled', 'campus_id'])
    .where('unit_id', '=', unitId)
    .where(
      'user_id',
      'in',
      requests.map((r) => r.userId),
    )
    .execute();
  const byUser = new Map(existing.map((p) => [p.user_id, p]));
  const created = new Map<number, IProject>();
  const results: EnrolmentResult[] = [];
  const reenrolled: number[] = [];
  const campusUpdates: { id: number; campusId: number | null }[] = [];
  for (const request of requests) {
    const found = byUser.get(request.userId);
    if (!found) {
      created.set(request.userId, em.create(Project, { unit: unitId, user: request.userId, campus: request.campusId, taskStats: { ...EMPTY_STATS } }));
      continue;
    }
    const campusChanged = found.campus_id !== request.campusId && (!found.enrolled || options.updateCampus === true);
    if (campusChanged) campusUpdates.push({ id: found.id, campusId: request.campusId });
    if (!found.enrolled) reenrolled.push(found.id);
    const outcome: EnrolmentOutcome = found.enrolled ? 'unchanged' : 'reenrolled';
    results.push({ userId: request.userId, projectId: found.id, outcome, campusChanged: campusChanged && outcome === 'unchanged' });
  }
  if (created.size) await em.flush();
  if (reenrolled.length || campusUpdates.length) {
    // One UPDATE for every changed project: its campus from a VALUES list, enrolled set again.
    const changed = new Map<number, { campusId: number | null; changeCampus: boolean }>();
    for (const id of reenrolled) changed.set(id, { campusId: null, changeCampus: false });
    for (const u of campusUpdates) changed.set(u.id, { campusId: u.campusId, changeCampus: true });
    const values = sql.join([...changed].map(([id, c]) => sql`(${id}::int, ${c.campusId}::int, ${c.changeCampus}::boolean)`));
    await sql`
      update projects p set
        enrolled = true,
        campus_id = case when v.change_campus then v.campus_id else p.campus_id end,
        updated_at = now()
      from (values ${values}) as v(id, campus_id, change_campus)
      where p.id = v.id`.execute(db(em));
    if (reenrolled.length) await checkGroupsOnReenrolment(em, reenrolled);
  }
  const order = new Map(requests.map((r, i) => [r.userId, i]));
  for (const [userId, project] of created) results.push({ userId, projectId: project.id, outcome: 'created', campusChanged: false });
  return results.sort((a, b) => order.get(a.userId)! - order.get(b.userId)!);
}

/**
 * A student who comes back keeps the group memberships they had, unless the group no longer
 * fits them: its set keeps groups in one class and they are not in the group's tutorial, or the
 * group is now full without them. Those memberships are deactivated (kept for history).
 */
export async function checkGroupsOnReenrolment(em: Em, projectIds: number[]): Promise<void> {
  if (projectIds.length === 0) return;
  await sql`
    update group_memberships gm set active = false, updated_at = now()
    from groups g join group_sets gs on gs.id = g.group_set_id
    where gm.group_id = g.id and gm.active and gm.project_id in (${sql.join(projectIds)})
      and (
        (gs.keep_groups_in_same_class and not exists (
          select 1 from tutorial_enrolments e where e.project_id = gm.project_id and e.tutorial_id = g.tutorial_id))
        or (gs.capacity is not null and (
          select count(*) from group_memberships o join projects op on op.id = o.project_id
          where o.group_id = g.id and o.active and op.enrolled and o.project_id <> gm.project_id
        ) >= gs.capacity + g.capacity_adjustment)
      )`.execute(db(em));
}

/** Withdraws enrolled projects (their tutorials and groups are kept for a return). */
export async function withdrawProjects(em: Em, projectIds: number[]): Promise<void> {
  if (projectIds.length === 0) return;
  await db(em)
    .updateTable('projects')
    .set({ enrolled: false, updated_at: sql`now()` as never })
    .where('id', 'in', projectIds)
    .execute();
}
