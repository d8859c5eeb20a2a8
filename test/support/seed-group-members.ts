// Group sets, groups and memberships written straight through the ORM, for the tests of group
// members and group CSVs (the operations under test do not create sets or groups themselves).
import { Group, GroupMembership, GroupSet, type IGroupSet } from '../../schema/index.ts';
import type { TestEnv } from './env.ts';

async function insert(env: TestEnv, entity: unknown, data: Record<string, unknown>): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(entity as never, data as never) as { id: number };
  await em.flush();
  return row.id;
}

export type SetSeed = Partial<
  Pick<IGroupSet, 'name' | 'allowStudentsToCreateGroups' | 'allowStudentsToManageGroups' | 'keepGroupsInSameClass' | 'capacity' | 'locked'>
>;

/** A group set named `Projects` unless told; the schema's defaults otherwise (students manage, no capacity, unlocked). */
export function seedGroupSet(env: TestEnv, unit: number, seed: SetSeed = {}): Promise<number> {
  return insert(env, GroupSet, { unit, name: 'Projects', ...seed });
}

export function seedGroupRow(
  env: TestEnv,
  groupSet: number,
  tutorial: number,
  name: string,
  seed: { locked?: boolean; capacityAdjustment?: number } = {},
): Promise<number> {
  return insert(env, Group, { groupSet, tutorial, name, locked: seed.locked ?? false, capacityAdjustment: seed.capacityAdjustment ?? 0 });
}

export function seedMember(env: TestEnv, group: number, project: number, active = true): Promise<number> {
  return insert(env, GroupMembership, { group, project, active });
}

/** Every membership of a project (group id and whether active), oldest first. */
export async function membershipsOf(env: TestEnv, project: number): Promise<{ group: number; active: boolean }[]> {
  const rows = await env.orm.em.fork().find(GroupMembership, { project }, { orderBy: { id: 'asc' } });
  return rows.map((m) => ({ group: (m.group as unknown as { id: number }).id, active: m.active }));
}
