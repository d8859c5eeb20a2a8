// Who may join a group and who may leave it: the original's checks, in its order, as pure
// functions of facts the caller has loaded (behaviour.md §9.2). The REST operations and the
// student-groups CSV import both decide through these; capacities are in groups.ts.

/** A student's name as the original shows it in group messages: first given name and surname, each cut at 15 characters. */
export function studentName(firstName: string, lastName: string): string {
  const cut = (s: string) => (s.length > 15 ? `${s.slice(0, 12)}...` : s);
  return `${cut(firstName.trim().split(/\s+/)[0] ?? '')} ${cut(lastName)}`;
}

export interface JoinFacts {
  /** The set's `join_group` allows the caller (src/policy canInGroupSet). */
  mayJoin: boolean;
  setLocked: boolean;
  /** The caller may `get` the project (its student, or staff of the unit). */
  mayManageStudent: boolean;
  keepGroupsInSameClass: boolean;
  /** The project is enrolled in the group's tutorial. */
  inGroupTutorial: boolean;
  tutorialAbbreviation: string;
  alreadyMember: boolean;
  name: string;
  groupLocked: boolean;
  atCapacity: boolean;
  /** The group's `can_exceed_capacity` allows the caller (convenors and admins; never tutors). */
  mayExceedCapacity: boolean;
}

/** Why a project may not join a group (the first check that fails), or null when it may. */
export function joinRefusal(f: JoinFacts): string | null {
  if (!f.mayJoin) return f.setLocked ? 'All of these groups are now locked' : 'Not authorised to manage this group';
  if (!f.mayManageStudent) return 'Not authorised to manage this student';
  if (f.keepGroupsInSameClass && !f.inGroupTutorial) return `Students from the tutorial '${f.tutorialAbbreviation}' can only be added to this group.`;
  if (f.alreadyMember) return `${f.name} is already a member of this group`;
  if (f.groupLocked) return 'Group is locked, no additional members can be added';
  if (f.atCapacity && !f.mayExceedCapacity) return 'Group is at capacity, no additional members can be added';
  return null;
}

export interface LeaveFacts {
  /** The group's `manage_group` allows the caller (src/policy canInGroup). */
  mayManageGroup: boolean;
  groupLocked: boolean;
  setLocked: boolean;
  mayManageStudent: boolean;
  isMember: boolean;
  name: string;
}

/** Why a project may not be taken out of a group, or null when it may. */
export function leaveRefusal(f: LeaveFacts): string | null {
  if (!f.mayManageGroup) return f.groupLocked || f.setLocked ? 'This group is locked' : 'Not authorised to manage this group';
  if (!f.mayManageStudent) return 'Not authorised to manage this student';
  if (!f.isMember) return `${f.name} is not a member of this group`;
  return null;
}
