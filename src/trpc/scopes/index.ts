// The procedure builders: every procedure that needs a permission is made from one of these. Each
// names the record its input addresses, loads it (404 when unknown), resolves the caller's role
// through src/policy, refuses with 403 and the operation's message unless the policy table of its
// scope allows the action, and puts the record and the role in the context. The `…Mutation`
// builders do all of it inside the change's one transaction. docs/authorisation.md describes them.
export { commentMutation, commentQuery, type CommentScope } from './comment.ts';
export { groupMutation, groupQuery, type GroupScope, type MemberProject } from './group.ts';
export {
  findGroup,
  findGroupSet,
  groupSetMutation,
  groupSetQuery,
  SET_OF_OTHER_UNIT,
  setFlags,
  UNKNOWN_GROUP,
  UNKNOWN_GROUP_SET,
  type GroupSetScope,
} from './group-set.ts';
export { projectMutation, projectQuery, type ProjectScope } from './project.ts';
export { similarityMutation, similarityQuery, similarityTask, type SimilarityScope, type SimilarityTask } from './similarity.ts';
export { systemMutation, systemQuery, type SystemScope } from './system.ts';
export { taskMutation, taskQuery, type TaskScope } from './task.ts';
export { testAttemptMutation, testAttemptQuery, UNKNOWN_ATTEMPT, type TestAttemptScope } from './test-attempt.ts';
export { unitMutation, unitQuery, type UnitRecordLoader, type UnitScope } from './unit.ts';
export { userMutation, userQuery, type UserScope } from './user.ts';
