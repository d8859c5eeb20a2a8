// A group's members as the listing shows them.
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';

export interface MemberOut {
  id: number;
  target_grade: number;
  student: { id: number; email: string; first_name: string; last_name: string; username: string; nickname: string | null };
}

/** The active members of a group whose projects are enrolled, by username, in one query. */
export async function listMembers(em: Em, groupId: number): Promise<MemberOut[]> {
  const rows = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.target_grade', 'u.id as user_id', 'u.email', 'u.first_name', 'u.last_name', 'u.username', 'u.nickname'])
    .where('m.group_id', '=', groupId)
    .where('m.active', '=', true)
    .where('p.enrolled', '=', true)
    .orderBy('u.username')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    target_grade: r.target_grade,
    student: { id: r.user_id, email: r.email, first_name: r.first_name, last_name: r.last_name, username: r.username, nickname: r.nickname },
  }));
}
