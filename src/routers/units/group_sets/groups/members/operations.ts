// Listing a group's members and deciding who joins it, as plain functions: the REST operations
// and the student-groups CSV import both add members through joinGroup, so the checks
// (src/domain/group-members.ts) and the write (the group-set operations' addMember) are one.
import { sql } from 'kysely';
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import { joinRefusal, studentName } from '../../../../../domain/group-members.ts';
import { atCapacity, groupCapacity } from '../../../../../domain/groups.ts';
import { addMember, inTutorial, membershipInSet } from '../../operations.ts';

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

/** Active members with enrolled projects: what a group's capacity is measured against. */
export async function studentCount(em: Em, groupId: number): Promise<number> {
  const row = await db(em)
    .selectFrom('group_memberships as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('m.group_id', '=', groupId)
    .where('m.active', '=', true)
    .where('p.enrolled', '=', true)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** What the caller's roles allow, resolved through src/policy by whoever calls joinGroup. */
export interface Joiner {
  /** The set's `join_group`. */
  mayJoin: boolean;
  /** `project :get` on the joining project. */
  mayManageStudent: boolean;
  /** The group's `can_exceed_capacity` (convenors and admins). */
  mayExceedCapacity: boolean;
}

export type JoinOutcome = { ok: true; moved: boolean } | { ok: false; message: string; alreadyMember: boolean };

/**
 * Puts a project of the group's unit in the group when joinRefusal allows it; an active
 * membership elsewhere in the set moves here (one group per set). The group and the project rows
 * are locked until the transaction ends, so two additions cannot both take the last place, nor
 * put one student in two groups of a set.
 */
export async function joinGroup(em: Em, groupId: number, projectId: number, joiner: Joiner): Promise<JoinOutcome> {
  const k = db(em);
  const group = await k
    .selectFrom('groups as g')
    .innerJoin('group_sets as s', 's.id', 'g.group_set_id')
    .innerJoin('tutorials as t', 't.id', 'g.tutorial_id')
    .select([
      'g.id',
      'g.locked',
      'g.capacity_adjustment',
      'g.tutorial_id',
      'g.group_set_id',
      's.locked as set_locked',
      's.capacity',
      's.keep_groups_in_same_class',
      't.abbreviation',
    ])
    .where('g.id', '=', groupId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const project = await k
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'u.first_name', 'u.last_name'])
    .where('p.id', '=', projectId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const current = await membershipInSet(em, projectId, group.group_set_id);
  const alreadyMember = current?.group_id === groupId;
  const message = joinRefusal({
    mayJoin: joiner.mayJoin,
    setLocked: group.set_locked,
    mayManageStudent: joiner.mayManageStudent,
    keepGroupsInSameClass: group.keep_groups_in_same_class,
    inGroupTutorial: !group.keep_groups_in_same_class || (await inTutorial(em, projectId, group.tutorial_id)),
    tutorialAbbreviation: group.abbreviation,
    alreadyMember,
    name: studentName(project.first_name, project.last_name),
    groupLocked: group.locked,
    atCapacity: atCapacity(await studentCount(em, groupId), groupCapacity(group.capacity, group.capacity_adjustment)),
    mayExceedCapacity: joiner.mayExceedCapacity,
  });
  if (message !== null) return { ok: false, message, alreadyMember };
  await addMember(em, { groupId, groupSetId: group.group_set_id, projectId });
  return { ok: true, moved: current !== null };
}

/** Ends a project's membership of a group; the row stays, inactive, so the group's history survives. */
export async function leaveGroup(em: Em, groupId: number, projectId: number): Promise<void> {
  await db(em)
    .updateTable('group_memberships')
    .set({ active: false, updated_at: new Date().toISOString() })
    .where('group_id', '=', groupId)
    .where('project_id', '=', projectId)
    .where('active', '=', true)
    .execute();
}
