// Rules of group sets and groups that need no database (behaviour.md §9.1–9.2): capacities,
// generated names, and when a group may be deleted (who counts in a group is src/policy's).

export const SET_CAPACITY_TOO_SMALL = 'Validation failed: Capacity must be greater than or equal to 2';
export const SET_NAME_TAKEN = 'Validation failed: Name should be unique within a unit';
export const GROUP_NAME_TAKEN = 'Validation failed: Name must be unique within the set of groups';
export const MEMBERS_OUTSIDE_TUTORIAL = "Validation failed: Groups exist where some members are not in the group's tutorial";
export const GROUP_HAS_SUBMISSIONS = 'Cannot delete group while it has submissions.';

/** A set's capacity is unlimited (null) or at least two. */
export function validSetCapacity(capacity: number | null): boolean {
  return capacity === null || capacity >= 2;
}

/** A group's capacity: the set's plus the group's adjustment; unlimited when the set's is. */
export function groupCapacity(setCapacity: number | null, adjustment: number): number | null {
  return setCapacity === null ? null : setCapacity + adjustment;
}

/** Full when the active members reach the capacity. */
export function atCapacity(members: number, capacity: number | null): boolean {
  return capacity !== null && members >= capacity;
}

/**
 * The name a group gets when none was given (or the given one is blank): "Group N" from the
 * number of groups in the set plus one, counting up past names already taken.
 */
export function generatedGroupName(taken: ReadonlySet<string>, groupsInSet: number): string {
  let n = groupsInSet + 1;
  while (taken.has(`Group ${n}`)) n += 1;
  return `Group ${n}`;
}

/**
 * Why someone who is not staff of the unit may not delete this group (null: they may): only an
 * empty group, or one whose only member is the caller.
 */
export function deletionRefusalForStudent(memberUserIds: readonly number[], callerId: number): string | null {
  if (memberUserIds.length > 1) return 'You cannot delete a group with members';
  if (memberUserIds.length === 1 && memberUserIds[0] !== callerId) return 'You cannot delete this group';
  return null;
}
