import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePromptsJson, PROMPT_CONTENT_MAX, promptProblem } from '../../src/domain/discussion-prompts.ts';
import { DISCUSSION_REQUIRED, discussedSinceSubmission, requiredDiscussionRefusal } from '../../src/policy/index.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 2, 9, minute));
const base = {
  requiresDiscussion: true,
  role: 'Tutor' as const,
  from: 'ready_for_feedback' as const,
  to: 'complete' as const,
  movedToDiscussAt: null,
  submissionDate: at(0),
};

test('requiredDiscussionRefusal: a staff complete is refused until the task was in discuss since its last submission', () => {
  assert.is(requiredDiscussionRefusal(base), DISCUSSION_REQUIRED, 'never discussed');
  assert.is(requiredDiscussionRefusal({ ...base, movedToDiscussAt: at(5), submissionDate: at(0) }), null, 'discussed after the submission');
  assert.is(requiredDiscussionRefusal({ ...base, movedToDiscussAt: at(5), submissionDate: at(5) }), null, 'the same instant counts');
  assert.is(requiredDiscussionRefusal({ ...base, movedToDiscussAt: at(5), submissionDate: at(9) }), DISCUSSION_REQUIRED, 'resubmitted since');
  assert.is(requiredDiscussionRefusal({ ...base, movedToDiscussAt: at(5), submissionDate: null }), null, 'never submitted, but discussed');
  assert.is(requiredDiscussionRefusal({ ...base, submissionDate: null }), DISCUSSION_REQUIRED, 'neither submitted nor discussed');
});

test('requiredDiscussionRefusal: only complete, only a real change, only where the definition requires it, only staff', () => {
  assert.is(requiredDiscussionRefusal({ ...base, requiresDiscussion: false }), null);
  for (const to of ['fix_and_resubmit', 'redo', 'discuss', 'demonstrate', 'feedback_exceeded', 'fail'] as const) {
    assert.is(requiredDiscussionRefusal({ ...base, to }), null, to);
  }
  assert.is(requiredDiscussionRefusal({ ...base, from: 'complete' }), null, 'complete stays complete');
  assert.is(requiredDiscussionRefusal({ ...base, role: 'Student' }), null, 'students cannot complete anyway (mayTrigger refuses)');
  assert.is(requiredDiscussionRefusal({ ...base, role: 'GroupMember' }), null);
});

test('discussedSinceSubmission: in discuss or demonstrate now counts, whatever the recorded times (rows from before the column)', () => {
  for (const from of ['discuss', 'demonstrate'] as const) {
    assert.ok(discussedSinceSubmission({ from, movedToDiscussAt: null, submissionDate: at(3) }), from);
    assert.is(requiredDiscussionRefusal({ ...base, from }), null, from);
  }
  assert.not.ok(discussedSinceSubmission({ from: 'fix_and_resubmit', movedToDiscussAt: at(1), submissionDate: at(2) }));
});

test('promptProblem: content non-empty and not too long, priority a whole number in range', () => {
  assert.is(promptProblem({ content: 'Why?', priority: 0 }), null);
  assert.is(promptProblem({ content: '', priority: 0 }), 'Content is empty');
  assert.match(promptProblem({ content: 'x'.repeat(PROMPT_CONTENT_MAX + 1), priority: 0 })!, /too long/);
  assert.is(promptProblem({ content: 'x'.repeat(PROMPT_CONTENT_MAX), priority: 0 }), null);
  assert.match(promptProblem({ content: 'x', priority: 1.5 })!, /whole number/);
  assert.match(promptProblem({ content: 'x', priority: 2_000_000 })!, /whole number/);
});

test('parsePromptsJson: a list of {content, priority}, trimmed, priority defaulting to 0; each problem named', () => {
  assert.equal(parsePromptsJson('[{"content":" Why? ","priority":2},{"content":"How?"}]'), [
    { content: 'Why?', priority: 2 },
    { content: 'How?', priority: 0 },
  ]);
  assert.equal(parsePromptsJson('[]'), []);
  const refused: [string, RegExp][] = [
    ['nope', /not JSON/],
    ['{"content":"x"}', /discussion_prompts \(list\)/],
    ['[{"priority":1}]', /discussion_prompts 0\.content/],
    ['[{"content":"ok"},{"content":"  "}]', /discussion_prompts 1: Content is empty/],
    ['[{"content":"x","priority":"1"}]', /discussion_prompts 0\.priority/],
    ['[{"content":"x","priority":0.5}]', /discussion_prompts 0: Priority/],
  ];
  for (const [text, message] of refused) assert.throws(() => parsePromptsJson(text), message, text);
});

test.run();
