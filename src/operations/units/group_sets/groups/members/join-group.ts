// Deciding who joins a group: the REST operation and the student-groups CSV import both add
// members through joinGroup, so the checks (src/domain/group-members.ts) and the write
// (set-membership.ts's addMember) are one.
import { sql } from 'kysely';
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import { joinRefusal, studentName } from '../../../../../domain/group-members.ts';
import { atCapacity, groupCapacity } from '../../../../../domain/groups.ts';
import { forbidden } from '../../../../../lib/errors.ts';
import { addMember, inTutorial, membershipInSet } from '../../set-membership.ts';

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

/**
 * The student's project as the group scope loads it (the group scope builder's MemberProject):
 * id, target grade, names, and `mayManageStudent` (`project :get` for the caller).
 */
export type MemberProject = Record<'username' | 'first_name' | 'last_name', string> & {
  id: number;
  target_grade: number;
  nickname: string | null;
  mayManageStudent: boolean;
};

/** What POST .../members/{project_id} answers: the spec's add form. */
export interface AddedMember {
  id: number;
  student_username: string;
  student_first_name: string;
  student_last_name: string;
  student_nickname: string | null;
  target_grade: number;
}

/** A caller putting a student (already checked to be enrolled in the unit) in a group; 403 with the refusal. */
export async function addGroupMember(
  em: Em,
  groupId: number,
  member: MemberProject,
  joiner: Omit<Joiner, 'mayJoin' | 'mayManageStudent'>,
): Promise<AddedMember> {
  const outcome = await joinGroup(em, groupId, member.id, {
    mayJoin: true, // the caller's scope has checked the set's join_group
    mayManageStudent: member.mayManageStudent,
    mayExceedCapacity: joiner.mayExceedCapacity,
  });
  if (!outcome.ok) throw forbidden(outcome.message);
  return {
    id: member.id,
    student_username: member.username,
    student_first_name: member.first_name,
    student_last_name: member.last_name,
    student_nickname: member.nickname,
    target_grade: member.target_grade,
  };
}
