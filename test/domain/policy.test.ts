import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SYSTEM_ROLES } from '../../schema/enums.ts';
import { canAssignRole, roleChangeAction, unitRoleOf, unitRolesBlocking } from '../../src/policy/permissions.ts';
import { can } from '../../src/policy/index.ts';

const test = suite('policy: the permission table and role rules');

test('system actions follow the reference matrix', () => {
  assert.ok(can({ systemRole: 'Admin' }, 'handle_campuses'));
  assert.not.ok(can({ systemRole: 'Convenor' }, 'handle_campuses'));
  assert.ok(can({ systemRole: 'Convenor' }, 'create_unit'));
  assert.ok(can({ systemRole: 'Convenor' }, 'use_overseer'));
  assert.not.ok(can({ systemRole: 'Convenor' }, 'admin_overseer'));
  assert.ok(can({ systemRole: 'Tutor' }, 'act_tutor'));
  assert.not.ok(can({ systemRole: 'Tutor' }, 'list_users'));
  for (const role of SYSTEM_ROLES) assert.ok(can({ systemRole: role }, 'get_teaching_periods'), role);
  assert.not.ok(can({ systemRole: 'Student' }, 'act_tutor'));
});

test('who may give which system role', () => {
  for (const from of [null, ...SYSTEM_ROLES]) for (const to of SYSTEM_ROLES) assert.ok(canAssignRole('Admin', from, to));
  assert.ok(canAssignRole('Convenor', null, 'Student'));
  assert.ok(canAssignRole('Convenor', null, 'Tutor'));
  assert.not.ok(canAssignRole('Convenor', null, 'Convenor'));
  assert.ok(canAssignRole('Convenor', 'Student', 'Tutor'));
  assert.ok(canAssignRole('Convenor', 'Tutor', 'Student'));
  assert.not.ok(canAssignRole('Convenor', 'Tutor', 'Admin'));
  assert.not.ok(canAssignRole('Convenor', 'Convenor', 'Student'));
  assert.not.ok(canAssignRole('Tutor', null, 'Student'));
  assert.not.ok(canAssignRole('Student', 'Student', 'Student'));
  assert.is(roleChangeAction('Student', 'Tutor'), 'promote_user');
  assert.is(roleChangeAction('Admin', 'Convenor'), 'demote_user');
  assert.equal(unitRolesBlocking('Student'), ['Tutor', 'Convenor']);
  assert.equal(unitRolesBlocking('Tutor'), ['Convenor']);
  assert.equal(unitRolesBlocking('Admin'), []);
});

test('a role in a unit: staff role, then enrolment, then system Admin', () => {
  assert.is(unitRoleOf('Convenor', true, 'Admin'), 'Convenor');
  assert.is(unitRoleOf('Tutor', false, 'Student'), 'Tutor');
  assert.is(unitRoleOf(null, true, 'Admin'), 'Student');
  assert.is(unitRoleOf(null, false, 'Admin'), 'Admin');
  assert.is(unitRoleOf(null, false, 'Convenor'), null);
});

test.run();
