import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { canInGroup, canInGroupSet, canInProject, canInTask, canInUnit, UNIT_ACTIONS } from '../../src/policy/scopes.ts';

const test = suite('policy: permission tables inside a unit (behaviour.md §1.5–1.8)');

const unitFlags = { allowStudentChangeTutorial: false, allowStudentExtensionRequests: false };
const openSet = { locked: false, allowStudentsToCreateGroups: true, allowStudentsToManageGroups: true };

test('unit: students only read, tutors also mark and read staff data, convenors everything, admins all but marking and its oversight', () => {
  assert.equal(
    UNIT_ACTIONS.filter((a) => canInUnit('Student', a)),
    ['get_unit'],
  );
  assert.ok(canInUnit('Tutor', 'provide_feedback'));
  assert.ok(canInUnit('Tutor', 'get_students'));
  assert.not.ok(canInUnit('Tutor', 'update'));
  assert.equal(
    UNIT_ACTIONS.filter((a) => !canInUnit('Convenor', a)),
    [],
  );
  assert.equal(
    UNIT_ACTIONS.filter((a) => !canInUnit('Admin', a)),
    ['provide_feedback', 'perform_overseer_assessment_test', 'oversee_marking'],
  );
  assert.not.ok(canInUnit(null, 'get_unit'));
});

test('project: owners get their own work, staff everything; changing tutorial needs the unit to allow it', () => {
  assert.ok(canInProject('Student', 'make_submission', unitFlags));
  assert.not.ok(canInProject('Student', 'assess', unitFlags));
  assert.not.ok(canInProject('Student', 'change_tutorial', unitFlags));
  assert.ok(canInProject('Student', 'change_tutorial', { allowStudentChangeTutorial: true }));
  assert.ok(canInProject('Tutor', 'change_tutorial', unitFlags));
  assert.not.ok(canInProject(null, 'get', unitFlags));
});

test('task: discussions and extension requests follow the table and the unit flag; group members get nothing', () => {
  assert.ok(canInTask('Student', 'start_discussion', unitFlags));
  assert.not.ok(canInTask('Tutor', 'start_discussion', unitFlags));
  assert.not.ok(canInTask('Student', 'request_extension', unitFlags));
  assert.ok(canInTask('Student', 'request_extension', { allowStudentExtensionRequests: true }));
  assert.ok(canInTask('Tutor', 'assess_extension', unitFlags));
  assert.not.ok(canInTask('GroupMember', 'get', unitFlags));
});

test('group sets refuse admins who are not staff; students create and join only in open, permissive sets', () => {
  assert.not.ok(canInGroupSet('Admin', 'get_groups', openSet));
  assert.ok(canInGroupSet('Student', 'create_group', openSet));
  assert.not.ok(canInGroupSet('Student', 'create_group', { ...openSet, locked: true }));
  assert.not.ok(canInGroupSet('Student', 'join_group', { ...openSet, allowStudentsToManageGroups: false }));
  assert.ok(canInGroupSet('Tutor', 'join_group', { ...openSet, locked: true }));
});

test('groups: tutors cannot exceed capacity; student members manage only unlocked groups of permissive sets', () => {
  assert.not.ok(canInGroup('Tutor', 'can_exceed_capacity', { locked: false }, openSet));
  assert.ok(canInGroup('Convenor', 'can_exceed_capacity', { locked: false }, openSet));
  assert.ok(canInGroup('Student', 'manage_group', { locked: false }, openSet));
  assert.not.ok(canInGroup('Student', 'manage_group', { locked: true }, openSet));
  assert.not.ok(canInGroup('Student', 'lock_group', { locked: false }, openSet));
});

test.run();
