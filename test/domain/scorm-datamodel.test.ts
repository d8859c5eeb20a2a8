// The SCORM 2004 data model check of every commit (src/domain/scorm-datamodel.ts): what a package
// may write, what it may only echo, what the service derives, and the caps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyCommit,
  dataModelFacts,
  initialDataModel,
  MAX_COMMIT_CHARS,
  MAX_DATAMODEL_CHARS,
  MAX_ELEMENTS,
  parseCommit,
  type DataModel,
} from '../../src/domain/scorm-datamodel.ts';

const start = (): DataModel => initialDataModel({ id: 's123', name: 'Ann Lee' });

function ok(commit: Record<string, string>, stored: DataModel = start()): DataModel {
  const result = applyCommit(stored, commit);
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.model;
}

function refused(commit: Record<string, string>, stored: DataModel = start()): string {
  const result = applyCommit(stored, commit);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(commit)}`);
  return result.error;
}

test('a new attempt starts not attempted, from the beginning, in normal mode, for the learner, with every count 0', () => {
  assert.equal(start(), {
    'cmi.completion_status': 'not attempted',
    'cmi.entry': 'ab-initio',
    'cmi.mode': 'normal',
    'cmi.learner_id': 's123',
    'cmi.learner_name': 'Ann Lee',
    'cmi.comments_from_learner._count': '0',
    'cmi.comments_from_lms._count': '0',
    'cmi.interactions._count': '0',
    'cmi.objectives._count': '0',
  });
});

test('parseCommit: a JSON object of strings; numbers are taken as text; anything else is refused', () => {
  assert.equal(parseCommit('{"cmi.score.scaled":0.5,"cmi.location":"p1"}'), { ok: true, commit: { 'cmi.score.scaled': '0.5', 'cmi.location': 'p1' } });
  for (const text of ['', '{', 'null', '[]', '"x"', '3']) assert.is(parseCommit(text).ok, false, text);
  const nested = parseCommit('{"cmi.location":{"a":1}}');
  assert.equal(nested, { ok: false, error: 'cmi.location: a SCORM value is a string (got object).' });
  assert.match((parseCommit('{"cmi.location":true}') as { error: string }).error, 'got boolean');
  assert.match((parseCommit('{"cmi.location":[1]}') as { error: string }).error, 'got an array');
  assert.match((parseCommit('{"cmi.location":"a\\u0000b"}') as { error: string }).error, 'NUL');
});

test('parseCommit: too long a text, or too many elements, is too large', () => {
  const long = parseCommit(`{"cmi.suspend_data":"${'x'.repeat(MAX_COMMIT_CHARS)}"}`);
  assert.equal(long.ok ? null : long.tooLarge, true);
  const many: Record<string, string> = {};
  for (let i = 0; i <= MAX_ELEMENTS; i++) many[`cmi.interactions.${i}.id`] = 'q';
  const crowded = parseCommit(JSON.stringify(many));
  assert.equal(crowded.ok ? null : crowded.tooLarge, true);
});

test('read-write elements of every kind are accepted and merged; elements left out keep their values', () => {
  const model = ok({
    'cmi.completion_status': 'completed',
    'cmi.success_status': 'passed',
    'cmi.score.scaled': '-0.25',
    'cmi.score.raw': '12.5',
    'cmi.score.min': '0',
    'cmi.score.max': '100',
    'cmi.progress_measure': '1',
    'cmi.location': 'page 3',
    'cmi.suspend_data': '{"q":[1,2,3]}',
    'cmi.exit': 'normal',
    'cmi.session_time': 'PT1H2M3.45S',
    'cmi.learner_preference.audio_level': '2.5',
    'cmi.learner_preference.language': 'en-AU',
    'cmi.learner_preference.delivery_speed': '1',
    'cmi.learner_preference.audio_captioning': '-1',
    'cmi.comments_from_learner.0.comment': '{lang=en}Too hard',
    'cmi.comments_from_learner.0.location': 'q2',
    'cmi.comments_from_learner.0.timestamp': '2026-03-10T09:00:00Z',
    'cmi.objectives.0.id': 'urn:obj:1',
    'cmi.objectives.0.score.scaled': '0.5',
    'cmi.objectives.0.success_status': 'unknown',
    'cmi.objectives.0.completion_status': 'incomplete',
    'cmi.objectives.0.progress_measure': '0.3',
    'cmi.objectives.0.description': 'First',
    'cmi.interactions.0.id': 'q1',
    'cmi.interactions.0.type': 'numeric',
    'cmi.interactions.0.timestamp': '2026-03-10T09:01',
    'cmi.interactions.0.weighting': '1',
    'cmi.interactions.0.learner_response': '3.14',
    'cmi.interactions.0.correct_responses.0.pattern': '3[:]3.2',
    'cmi.interactions.0.result': 'correct',
    'cmi.interactions.0.latency': 'PT5S',
    'cmi.interactions.0.description': 'Pi',
    'cmi.interactions.0.objectives.0.id': 'urn:obj:1',
    'cmi.interactions.1.id': 'q2',
    'cmi.interactions.1.type': 'true-false',
    'cmi.interactions.1.correct_responses.0.pattern': 'true',
    'cmi.interactions.1.learner_response': 'false',
    'cmi.interactions.1.result': '0.5',
    'adl.nav.request': '{target=sco2}choice',
  });
  assert.is(model['cmi.score.scaled'], '-0.25');
  assert.is(model['cmi.learner_id'], 's123');
  assert.is(model['cmi.interactions._count'], '2');
  assert.is(model['cmi.objectives._count'], '1');
  assert.is(model['cmi.comments_from_learner._count'], '1');
  assert.is(model['cmi.interactions.0.objectives._count'], '1');
  assert.is(model['cmi.interactions.0.correct_responses._count'], '1');
  assert.is(model['cmi.interactions.1.objectives._count'], '0');
  const later = ok({ 'cmi.location': 'page 4' }, model);
  assert.is(later['cmi.suspend_data'], '{"q":[1,2,3]}');
  assert.is(later['cmi.location'], 'page 4');
});

test('unknown elements are refused by name: SCORM 1.2 names, typos, out-of-model prefixes, odd indices', () => {
  for (const name of [
    'cmi.core.lesson_status',
    'cmi.scor.scaled',
    'cmi.score',
    'foo',
    'cmi.interactions.01.id',
    'cmi.interactions.x.id',
    'cmi.interactions.0.objectives.0.score',
  ]) {
    assert.is(refused({ [name]: '1' }), `${name} is not an element of the SCORM 2004 data model.`, name);
  }
  assert.match(refused({ 'cmi.interactions.1000.id': 'q' }), /^cmi\.interactions\.1000\.id: the index is beyond/);
  assert.match(refused({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.objectives.100.id': 'o' }), /the index is beyond/);
});

test('types, ranges and vocabularies: each refusal names the element and what it must be', () => {
  const cases: [string, string, RegExp][] = [
    ['cmi.score.scaled', '1.01', /^cmi\.score\.scaled must be a real number in \[-1, 1\]\.$/],
    ['cmi.score.scaled', '-1.5', /in \[-1, 1\]/],
    ['cmi.score.scaled', '1e0', /real number/],
    ['cmi.score.scaled', 'NaN', /real number/],
    ['cmi.score.raw', 'ten', /^cmi\.score\.raw must be a real number\.$/],
    ['cmi.progress_measure', '1.2', /in \[0, 1\]/],
    ['cmi.objectives.0.score.scaled', '2', /^cmi\.objectives\.0\.score\.scaled/],
    ['cmi.learner_preference.audio_level', '-1', /of at least 0/],
    ['cmi.learner_preference.audio_captioning', '2', /must be one of -1, 0, 1/],
    ['cmi.learner_preference.language', 'english please', /language code/],
    ['cmi.completion_status', 'complete', /must be one of completed, incomplete, not attempted, unknown/],
    ['cmi.success_status', 'pass', /must be one of passed, failed, unknown/],
    ['cmi.exit', 'quit', /must be one of time-out, suspend, logout, normal, ""/],
    ['cmi.session_time', '00:02:13', /duration/],
    ['cmi.session_time', 'P', /duration/],
    ['cmi.session_time', 'PT', /duration/],
    ['cmi.comments_from_learner.0.timestamp', '10/03/2026', /time in ISO 8601/],
    ['cmi.comments_from_learner.0.timestamp', '2026-13-01', /time in ISO 8601/],
    ['cmi.comments_from_learner.0.timestamp', '1969-01-01', /time in ISO 8601/],
    ['cmi.location', 'x'.repeat(1001), /longer than 1000 characters/],
    ['cmi.suspend_data', 'x'.repeat(64001), /^cmi\.suspend_data is longer than 64000 characters\.$/],
    ['cmi.comments_from_learner.0.comment', 'x'.repeat(4001), /longer than 4000/],
    ['adl.nav.request', 'jump', /must be one of continue, previous/],
  ];
  for (const [name, value, error] of cases) assert.match(refused({ [name]: value }), error, `${name}=${value.slice(0, 20)}`);
  // The SPM counts the text after a {lang=...} delimiter.
  ok({ 'cmi.comments_from_learner.0.comment': `{lang=en}${'x'.repeat(4000)}` });
  ok({ 'cmi.suspend_data': 'x'.repeat(64000) });
  ok({ 'cmi.session_time': 'P1Y2M3DT4H5M6S' });
  ok({ 'cmi.session_time': 'PT0.5S' });
});

test('interactions and objectives: numbered without gaps, id first, type before correct responses, response forms by type', () => {
  assert.is(refused({ 'cmi.interactions.0.result': 'correct' }), "cmi.interactions.0.id must be set before the record's other elements.");
  assert.is(refused({ 'cmi.objectives.0.success_status': 'passed' }), "cmi.objectives.0.id must be set before the record's other elements.");
  assert.match(refused({ 'cmi.interactions.0.id': 'a', 'cmi.interactions.2.id': 'c' }), /^cmi\.interactions\.1 is missing/);
  assert.match(refused({ 'cmi.comments_from_learner.1.comment': 'x' }), /^cmi\.comments_from_learner\.0 is missing/);
  assert.match(refused({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.correct_responses.1.pattern': 'a' }), /correct_responses\.0 is missing/);
  assert.match(
    refused({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.correct_responses.0.pattern': 'a' }),
    /type must be set before its correct responses/,
  );
  assert.match(
    refused({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.type': 'true-false', 'cmi.interactions.0.learner_response': 'yes' }),
    /true or false/,
  );
  assert.match(
    refused({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.type': 'true-false', 'cmi.interactions.0.correct_responses.0.pattern': '1' }),
    /true or false/,
  );
  assert.match(
    refused({
      'cmi.interactions.0.id': 'q',
      'cmi.interactions.0.type': 'true-false',
      'cmi.interactions.0.correct_responses.1.pattern': 'true',
      'cmi.interactions.0.correct_responses.0.pattern': 'false',
    }),
    /one correct response/,
  );
  // Other types' forms are not checked: Numbas writes a numeric range as min:max.
  ok({
    'cmi.interactions.0.id': 'q',
    'cmi.interactions.0.type': 'numeric',
    'cmi.interactions.0.correct_responses.0.pattern': '1:2',
    'cmi.interactions.0.learner_response': '1/2',
  });
  assert.match(refused({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.description': 'd'.repeat(1001) }), /longer than 1000/);
  assert.match(refused({ 'cmi.interactions.0.id': ' ' }), /^cmi\.interactions\.0\.id must not be empty/);
  assert.match(refused({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.result': 'wrong' }), /correct, incorrect, unanticipated, neutral, or a real number/);
  // The id may come in the same commit as the rest, in any order, or in an earlier one.
  const first = ok({ 'cmi.interactions.0.type': 'choice', 'cmi.interactions.0.id': 'q1' });
  ok({ 'cmi.interactions.0.result': 'incorrect' }, first);
  ok({ 'cmi.interactions.0.id': 'q', 'cmi.interactions.0.type': 'numeric', 'cmi.interactions.0.correct_responses.0.pattern': '[:]5' });
});

test('read-only elements: an echo of the held value (or SCORM default) is accepted and never stored; any other value is refused', () => {
  const model = ok({
    'cmi.learner_id': 's123',
    'cmi.learner_name': 'Ann Lee',
    'cmi.mode': 'normal',
    'cmi.credit': 'credit',
    'cmi._version': '1.0',
    'cmi.launch_data': '',
    'cmi.time_limit_action': 'continue,no message',
    'cmi.max_time_allowed': '',
    'cmi.completion_threshold': '',
    'cmi.scaled_passing_score': '',
    'cmi.comments_from_lms.0.comment': '',
  });
  assert.is(model['cmi.credit'], undefined);
  assert.is(model['cmi._version'], undefined);
  for (const [name, value] of [
    ['cmi.learner_id', 's999'],
    ['cmi.learner_name', 'Someone'],
    ['cmi.mode', 'browse'],
    ['cmi.credit', 'no-credit'],
    ['cmi._version', '2.0'],
    ['cmi.launch_data', 'x'],
    ['cmi.scaled_passing_score', '0'],
    ['cmi.completion_threshold', '0.1'],
    ['cmi.comments_from_lms.0.comment', 'I am the LMS'],
    ['adl.data.0.id', 'store'],
  ]) {
    assert.is(refused({ [name]: value }), `${name} is read-only: the package may not set it.`, name);
  }
  assert.match(refused({ 'adl.data.0.store': 'x' }), /data store this package does not declare/);
});

test("derived elements: the counts, cmi.entry, _children and total_time are the service's, whatever a commit says", () => {
  const model = ok({
    'cmi.interactions._count': '12',
    'cmi.objectives._count': 'many',
    'cmi.entry': 'resume',
    'cmi.total_time': 'PT9H',
    'cmi.score._children': 'scaled,raw',
    'cmi.interactions._children': 'id',
    'adl.nav.request_valid.choice.{target=a.b}': 'true',
    'adl.nav.request_valid.continue': 'true',
  });
  assert.is(model['cmi.interactions._count'], '0');
  assert.is(model['cmi.objectives._count'], '0');
  assert.is(model['cmi.entry'], 'ab-initio');
  assert.is(model['cmi.total_time'], undefined);
  assert.is(model['cmi.score._children'], undefined);
  assert.is(model['adl.nav.request_valid.continue'], undefined);
});

test('cmi.entry becomes "resume" once the attempt is incomplete or suspended', () => {
  assert.is(ok({ 'cmi.completion_status': 'incomplete' })['cmi.entry'], 'resume');
  assert.is(ok({ 'cmi.exit': 'suspend' })['cmi.entry'], 'resume');
  assert.is(ok({ 'cmi.completion_status': 'completed' })['cmi.entry'], 'ab-initio');
});

test('an empty string unsets a typed element (a player dumping unset elements), and is a value for text', () => {
  const scored = ok({ 'cmi.score.scaled': '0.5', 'cmi.location': 'p' });
  const cleared = ok({ 'cmi.score.scaled': '', 'cmi.success_status': '', 'cmi.location': '' }, scored);
  assert.is(cleared['cmi.score.scaled'], undefined);
  assert.is(cleared['cmi.success_status'], undefined);
  assert.is(cleared['cmi.location'], '');
});

test('the whole model is capped: a commit that would make it larger is too large', () => {
  const commit: Record<string, string> = {};
  let size = 0;
  for (let i = 0; size <= MAX_DATAMODEL_CHARS; i++) {
    commit[`cmi.comments_from_learner.${i}.comment`] = 'c'.repeat(4000);
    size += 4040;
  }
  const result = applyCommit(start(), commit);
  assert.equal(result.ok ? null : result.tooLarge, true);
});

test('dataModelFacts: the columns an attempt keeps, and what the comment says', () => {
  const model = ok({
    'cmi.completion_status': 'completed',
    'cmi.success_status': 'passed',
    'cmi.score.scaled': '0.75',
    'cmi.interactions.0.id': 'a',
    'cmi.interactions.0.result': 'correct',
    'cmi.interactions.1.id': 'b',
    'cmi.interactions.1.result': 'incorrect',
    'cmi.interactions.2.id': 'c',
    'cmi.interactions.2.result': 'neutral',
  });
  assert.equal(dataModelFacts(model), { completed: true, reportedPass: true, scoreScaled: 0.75, suspended: false, interactions: 3, wrongInteractions: 1 });
  assert.equal(dataModelFacts(start()), { completed: false, reportedPass: false, scoreScaled: null, suspended: false, interactions: 0, wrongInteractions: 0 });
  assert.is(dataModelFacts(ok({ 'cmi.exit': 'suspend' })).suspended, true);
});

test.run();
