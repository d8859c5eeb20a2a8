import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { atCapacity, deletionRefusalForStudent, generatedGroupName, groupCapacity, validSetCapacity } from '../../src/domain/groups.ts';
import { roleInGroupFor } from '../../src/policy/scopes.ts';

const test = suite('group rules');

test('a set holds no limit or at least two; a group adds its adjustment to the set capacity', () => {
  assert.equal([null, 2, 5].map(validSetCapacity), [true, true, true]);
  assert.equal([1, 0, -3].map(validSetCapacity), [false, false, false]);
  assert.is(groupCapacity(4, 1), 5);
  assert.is(groupCapacity(4, -2), 2);
  assert.is(groupCapacity(null, 3), null);
});

test('a group is at capacity when its members reach it; unlimited never is', () => {
  assert.is(atCapacity(2, 2), true);
  assert.is(atCapacity(3, 2), true);
  assert.is(atCapacity(1, 2), false);
  assert.is(atCapacity(1000, null), false);
});

test('generated names start at the number of groups plus one and skip names taken', () => {
  assert.is(generatedGroupName(new Set(), 0), 'Group 1');
  assert.is(generatedGroupName(new Set(['Alpha', 'Beta']), 2), 'Group 3');
  assert.is(generatedGroupName(new Set(['Group 2', 'Group 3', 'Zed']), 1), 'Group 4');
});

test('inside a group a student counts only as its member; staff keep their role', () => {
  assert.is(roleInGroupFor('Student', true), 'Student');
  assert.is(roleInGroupFor('Student', false), null);
  assert.is(roleInGroupFor('Tutor', false), 'Tutor');
  assert.is(roleInGroupFor('Admin', false), 'Admin');
  assert.is(roleInGroupFor(null, true), null);
});

test('a student may delete only an empty group or one they are alone in', () => {
  assert.is(deletionRefusalForStudent([], 7), null);
  assert.is(deletionRefusalForStudent([7], 7), null);
  assert.is(deletionRefusalForStudent([8], 7), 'You cannot delete this group');
  assert.is(deletionRefusalForStudent([7, 8], 7), 'You cannot delete a group with members');
});

test.run();
