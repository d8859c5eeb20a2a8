import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definitionProblem, isSingleDocument, parsePlagiarismChecks, parseUploadRequirements } from '../../src/domain/task-definitions.ts';

const test = suite('domain: task definition rules');

test('upload requirements: JSON text or an array; blank and null are none; tii settings normalised', () => {
  assert.equal(parseUploadRequirements(''), []);
  assert.equal(parseUploadRequirements(null), []);
  assert.equal(parseUploadRequirements('[{"key":"file0","name":"Report","type":"document","tii_check":"true","tii_pct":"30"}]'), [
    { key: 'file0', name: 'Report', type: 'document', tii_check: true, tii_pct: 30 },
  ]);
  assert.equal(parseUploadRequirements([{ key: 'file0', name: 'Code', type: 'code' }]), [{ key: 'file0', name: 'Code', type: 'code' }]);
});

test('upload requirements: each broken shape is named with its item number', () => {
  const message = (v: unknown) => {
    try {
      parseUploadRequirements(v);
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };
  assert.match(message('{}'), 'Did not contain array.');
  assert.match(message('[1]'), 'Array did not contain hashes for item 1.');
  assert.match(message('[{"key":"a","name":"b","type":"code"},{"key":"a"}]'), 'Missing a key for item 2.');
  assert.match(message('[{"key":"a","name":"b","type":"code","x":1}]'), 'has additional values for item 1 --> key name type x.');
  assert.match(message('[{"key":"a","name":"b","type":"pdf"}]'), 'item 1 has type "pdf"');
  assert.match(message('[{"key":"","name":"b","type":"code"}]'), 'item 1 needs a non-empty key and name');
  assert.match(message('[{"key":"a","name":"b","type":"code","tii_pct":"lots"}]'), 'tii_pct that is not a whole number');
  assert.match(message('[oops'), 'is not valid JSON');
});

test('plagiarism checks: exactly key, type "moss ..." and a pattern without "/" or ".."', () => {
  assert.equal(parsePlagiarismChecks('[{"key":"f","type":"moss c","pattern":"*.c"}]'), [{ key: 'f', type: 'moss c', pattern: '*.c' }]);
  assert.throws(() => parsePlagiarismChecks('[{"key":"f","type":"moss c"}]'), /exactly key, type and pattern/);
  assert.throws(() => parsePlagiarismChecks('[{"key":"f","type":"jplag","pattern":"*.c"}]'), /must start with "moss "/);
  assert.throws(() => parsePlagiarismChecks('[{"key":"f","type":"moss c","pattern":"src/*.c"}]'), /"\/" or "\.\."/);
});

test('grades, stars and the order of the dates', () => {
  const ok = { targetGrade: 3, maxQualityPts: 100, startDate: '2026-03-02', targetDate: '2026-03-02', dueDate: null };
  assert.is(definitionProblem(ok), undefined);
  assert.is(definitionProblem({ ...ok, targetGrade: -1 }), 'Target grade -1 is not a valid target grade');
  assert.is(definitionProblem({ ...ok, maxQualityPts: 101 }), 'Max quality pts must be between 0 and 100');
  assert.is(definitionProblem({ ...ok, targetDate: '2026-03-01' }), 'Target date must not be before the start date');
  assert.is(definitionProblem({ ...ok, dueDate: '2026-03-01' }), 'Due date must not be before the target date');
});

test('the draft learning summary is exactly one document', () => {
  assert.ok(isSingleDocument([{ key: 'file0', name: 'S', type: 'document' }]));
  assert.not.ok(isSingleDocument([{ key: 'file0', name: 'S', type: 'code' }]));
  assert.not.ok(isSingleDocument([]));
});

test.run();
