import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { joinFeedback, renderTemplate, suggestedStatus, unknownPlaceholders } from '../../src/domain/feedback-templates.ts';
import { missingFeedbackRefusal } from '../../src/policy/index.ts';

const values = { student_first_name: 'Ada', task_name: 'Pass 1', due_date: '2026-03-14' };

test('renderTemplate fills the known placeholders and leaves unknown ones as typed', () => {
  assert.is(renderTemplate('Hi {student_first_name}, {task_name} is due {due_date}. {mark} {task}', values), 'Hi Ada, Pass 1 is due 2026-03-14. {mark} {task}');
  assert.equal(unknownPlaceholders('{mark} {task_name} {mark} {Task}'), ['mark']);
});

test('joinFeedback: blank line between texts, blanks dropped', () => {
  assert.is(joinFeedback(['One ', '', ' Two']), 'One\n\nTwo');
});

test('suggestedStatus: none, one (repeated), or a conflict', () => {
  assert.equal(suggestedStatus([null, null]), { ok: true, status: null });
  assert.equal(suggestedStatus(['discuss', null, 'discuss']), { ok: true, status: 'discuss' });
  assert.equal(suggestedStatus(['discuss', 'redo']), { ok: false, statuses: ['discuss', 'redo'] });
});

test('missingFeedbackRefusal: only staff, only where the unit requires it, only the five statuses, only a real change', () => {
  const base = { unitRequires: true, role: 'Tutor' as const, from: 'ready_for_feedback' as const, comment: undefined };
  for (const to of ['discuss', 'demonstrate', 'redo', 'fix_and_resubmit', 'feedback_exceeded'] as const) {
    assert.ok(missingFeedbackRefusal({ ...base, to }), to);
  }
  assert.is(missingFeedbackRefusal({ ...base, to: 'complete' }), null);
  assert.is(missingFeedbackRefusal({ ...base, to: 'discuss', comment: 'Why' }), null);
  assert.ok(missingFeedbackRefusal({ ...base, to: 'discuss', comment: '   ' }));
  assert.is(missingFeedbackRefusal({ ...base, to: 'discuss', unitRequires: false }), null);
  assert.is(missingFeedbackRefusal({ ...base, to: 'discuss', from: 'discuss' }), null);
  assert.is(missingFeedbackRefusal({ ...base, to: 'discuss', role: 'Student' }), null);
});

test.run();
