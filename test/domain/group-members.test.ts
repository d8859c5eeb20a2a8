import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { joinRefusal, leaveRefusal, studentName, type JoinFacts } from '../../src/domain/group-members.ts';

const test = suite('domain: group members');

const allowed: JoinFacts = {
  mayJoin: true,
  setLocked: false,
  mayManageStudent: true,
  keepGroupsInSameClass: true,
  inGroupTutorial: true,
  tutorialAbbreviation: 'T1',
  alreadyMember: false,
  name: 'Ann Lee',
  groupLocked: false,
  atCapacity: false,
  mayExceedCapacity: false,
};

test('joining: the first failing check answers, in the original order', () => {
  assert.is(joinRefusal(allowed), null);
  // Everything wrong at once: the set's permission speaks first.
  const everythingWrong: JoinFacts = {
    ...allowed,
    mayJoin: false,
    setLocked: true,
    mayManageStudent: false,
    inGroupTutorial: false,
    alreadyMember: true,
    groupLocked: true,
    atCapacity: true,
  };
  assert.is(joinRefusal(everythingWrong), 'All of these groups are now locked');
  assert.is(joinRefusal({ ...everythingWrong, setLocked: false }), 'Not authorised to manage this group');
  assert.is(joinRefusal({ ...everythingWrong, mayJoin: true }), 'Not authorised to manage this student');
  assert.is(joinRefusal({ ...everythingWrong, mayJoin: true, mayManageStudent: true }), "Students from the tutorial 'T1' can only be added to this group.");
  assert.is(
    joinRefusal({ ...everythingWrong, mayJoin: true, mayManageStudent: true, keepGroupsInSameClass: false }),
    'Ann Lee is already a member of this group',
  );
  assert.is(joinRefusal({ ...allowed, groupLocked: true, atCapacity: true }), 'Group is locked, no additional members can be added');
  assert.is(joinRefusal({ ...allowed, atCapacity: true }), 'Group is at capacity, no additional members can be added');
  assert.is(joinRefusal({ ...allowed, atCapacity: true, mayExceedCapacity: true }), null);
});

test('leaving: locked before the student, the student before membership', () => {
  const ok = { mayManageGroup: true, groupLocked: false, setLocked: false, mayManageStudent: true, isMember: true, name: 'Ann Lee' };
  assert.is(leaveRefusal(ok), null);
  assert.is(leaveRefusal({ ...ok, mayManageGroup: false, setLocked: true, mayManageStudent: false }), 'This group is locked');
  assert.is(leaveRefusal({ ...ok, mayManageGroup: false }), 'Not authorised to manage this group');
  assert.is(leaveRefusal({ ...ok, mayManageStudent: false, isMember: false }), 'Not authorised to manage this student');
  assert.is(leaveRefusal({ ...ok, isMember: false }), 'Ann Lee is not a member of this group');
});

test('names in messages: first given name and surname, long ones cut', () => {
  assert.is(studentName('Mary Jane', 'Smith'), 'Mary Smith');
  assert.is(studentName('Bartholomewsworth', 'Featherstonehaughs'), 'Bartholomews... Featherstone...');
});

test.run();
