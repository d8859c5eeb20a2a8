// Pure rules of staff, tutorial streams and tutorial enrolments.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { capabilityProblem, roleFromId, roleFromName, roleIdOf, staffRoleOf } from '../../src/policy/staff.ts';
import { isFull, planEnrolment } from '../../src/domain/tutorial-enrolments.ts';
import { nextStreamNaming, taskDefinitionsOnStreamDeletion } from '../../src/domain/tutorial-streams.ts';

const test = suite('staff, streams and tutorial enrolments: pure rules');

test('role names match by stem in any case; ids are the original ones', () => {
  assert.equal(['tutor', 'CONVENOR', 'Unit Convenor', 'admin', 'student', 'root'].map(roleFromName), [
    'Tutor',
    'Convenor',
    'Convenor',
    'Admin',
    'Student',
    null,
  ]);
  assert.equal([1, 2, 3, 4, 5].map(roleFromId), ['Student', 'Tutor', 'Convenor', 'Admin', null]);
  assert.equal((['Student', 'Tutor', 'Convenor', 'Admin'] as const).map(roleIdOf), [1, 2, 3, 4]);
  assert.equal(staffRoleOf('Tutor'), { role: 'Tutor' });
  assert.equal(staffRoleOf('Student'), { status: 403, message: 'Enrol students as projects not unit roles' });
  assert.is((staffRoleOf('Admin') as { status: number }).status, 400);
});

test('convenors need a convening system role, tutors a teaching one', () => {
  assert.is(capabilityProblem('Convenor', 'Convenor'), null);
  assert.is(capabilityProblem('Admin', 'Convenor'), null);
  assert.ok(capabilityProblem('Tutor', 'Convenor'));
  assert.is(capabilityProblem('Tutor', 'Tutor'), null);
  assert.ok(capabilityProblem('Student', 'Tutor'));
});

test('streams take the first number free in both name and abbreviation', () => {
  const type = { name: 'Workshop', abbreviation: 'wrkshop' };
  assert.equal(nextStreamNaming(type, []), { name: 'Workshop 1', abbreviation: 'wrkshop 1' });
  assert.equal(
    nextStreamNaming(type, [
      { name: 'Workshop 1', abbreviation: 'x' },
      { name: 'y', abbreviation: 'wrkshop 2' },
    ]),
    {
      name: 'Workshop 3',
      abbreviation: 'wrkshop 3',
    },
  );
  assert.equal([1, 2, 3].map(taskDefinitionsOnStreamDeletion), ['clear', 'move_to_other', 'refuse']);
});

test('enrolment plans: same stream moves, new stream adds, no stream replaces all', () => {
  const a = { id: 1, tutorialId: 10, streamId: 1 };
  const b = { id: 2, tutorialId: 20, streamId: 2 };
  assert.equal(planEnrolment([], { id: 10, streamId: 1 }), { kind: 'add' });
  assert.equal(planEnrolment([a], { id: 10, streamId: 1 }), { kind: 'unchanged' });
  assert.equal(planEnrolment([a], { id: 11, streamId: 1 }), { kind: 'move', enrolmentId: 1, fromTutorialId: 10 });
  assert.equal(planEnrolment([a], { id: 20, streamId: 2 }), { kind: 'add' });
  assert.equal(planEnrolment([a, b], { id: 20, streamId: 2 }), { kind: 'unchanged' });
  assert.equal(planEnrolment([a, b], { id: 30, streamId: null }), { kind: 'replace_all', fromTutorialIds: [10, 20] });
  assert.equal(planEnrolment([a], { id: 30, streamId: null }), { kind: 'move', enrolmentId: 1, fromTutorialId: 10 });
  assert.equal(planEnrolment([{ id: 3, tutorialId: 30, streamId: null }], { id: 10, streamId: 1 }), { kind: 'move', enrolmentId: 3, fromTutorialId: 30 });
  assert.equal([isFull(-1, 100), isFull(0, 5), isFull(2, 1), isFull(2, 2)], [false, false, false, true]);
});

test.run();
