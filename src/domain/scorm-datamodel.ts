// The SCORM 2004 (4th edition) run-time data model of a test attempt, checked on every commit
// (docs/online-tests.md, "Attempts" and "Trust"). A commit is the package's data model as the
// player holds it, element → value; it is merged into the stored one, so elements it leaves out
// keep their values. Pure: no I/O.
//
// What a commit may hold:
// - read-write and write-only elements, each checked for its type, range, vocabulary and
//   smallest permitted maximum (SPM);
// - read-only elements only with the value the service holds (the player echoes them back);
//   any other value is refused, and they are never taken from a commit;
// - elements the service derives (`cmi.entry`, the `_count`s, `_children`, `cmi.total_time`,
//   `adl.nav.request_valid.*`): their values in a commit are ignored and computed again.
// Anything else is refused with a message naming the element.

export type DataModel = Record<string, string>;

export type CommitCheck = { ok: true; model: DataModel } | { ok: false; error: string; tooLarge?: boolean };

/** The whole data model, as stored (its JSON), is at most this many characters. */
export const MAX_DATAMODEL_CHARS = 256 * 1024;
/** The commit's JSON text is read only up to this size (a little above the model's, for escapes). */
export const MAX_COMMIT_CHARS = 2 * MAX_DATAMODEL_CHARS;
/**
 * At most this many elements in one commit. Checking costs about 5 µs an element once warm (a
 * 1,500-element quiz with 60,000 characters of suspend data about 10 ms), so this bounds a
 * commit's time on the event loop near 20 ms.
 */
export const MAX_ELEMENTS = 4000;
/** Interactions, objectives and learner comments: indices below this (SCORM's SPMs are 250 and 100; packages may record more). */
export const MAX_RECORDS = 1000;
/** An interaction's objectives and correct responses: indices below this. */
export const MAX_NESTED_RECORDS = 100;
/** Descriptions: four times SCORM's SPM of 250, since packages name questions by their titles. */
const DESCRIPTION_CHARS = 1000;
/** Learner responses and correct-response patterns are capped here (their SPMs depend on the interaction type). */
const MAX_RESPONSE_CHARS = 8000;

type Access = 'rw' | 'wo' | 'ro' | 'derived';
type Check = (value: string) => string | null;

interface ElementDef {
  access: Access;
  /** Why a value is refused (null: accepted); read-write and write-only elements. */
  check?: Check;
  /** A typed value: an empty string means "not set" and removes the element. */
  typed?: boolean;
  /** Read-only elements: the value held when the stored model has none (SCORM's default). */
  fallback?: string;
}

// ---- value types ----------------------------------------------------------------------------

const REAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

function real(min?: number, max?: number): Check {
  const range = min !== undefined && max !== undefined ? ` in [${min}, ${max}]` : min !== undefined ? ` of at least ${min}` : '';
  return (v) => {
    const n = REAL.test(v) ? Number(v) : Number.NaN;
    if (!Number.isFinite(n) || (min !== undefined && n < min) || (max !== undefined && n > max)) return `must be a real number${range}`;
    return null;
  };
}

const characterstring =
  (spm: number): Check =>
  (v) =>
    v.length > spm ? `is longer than ${spm} characters` : null;

/** `{lang=en}text`: the delimiter is not counted. */
const localized =
  (spm: number): Check =>
  (v) => {
    const m = /^\{lang=([^}]*)\}/.exec(v);
    if (m && m[1] !== '' && languageCheck(m[1]) !== null) return 'names an invalid language in {lang=...}';
    return (m ? v.slice(m[0].length) : v).length > spm ? `is longer than ${spm} characters` : null;
  };

const identifier: Check = (v) => (v.trim() === '' ? 'must not be empty' : v.length > 4000 ? 'is longer than 4000 characters' : null);

const LANGUAGE = /^([A-Za-z]{1,8}|i|x)(-[A-Za-z0-9]{1,8})*$/;
const languageCheck: Check = (v) => (v === '' || (v.length <= 250 && LANGUAGE.test(v)) ? null : 'must be a language code such as en or en-AU');

const vocabulary =
  (...words: string[]): Check =>
  (v) =>
    words.includes(v) ? null : `must be one of ${words.map((w) => (w === '' ? '""' : w)).join(', ')}`;

// time(second,10,0): YYYY[-MM[-DD[Thh[:mm[:ss[.s[TZD]]]]]]], years 1970–2038.
const TIME = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:\.\d{1,2})?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;
const time: Check = (v) => {
  const m = TIME.exec(v);
  const bad = 'must be a time in ISO 8601 form (YYYY-MM-DDThh:mm:ss)';
  if (!m) return bad;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
  if (year! < 1970 || year! > 2038) return bad;
  if (month !== undefined && (month < 1 || month > 12)) return bad;
  if (day !== undefined && (day < 1 || day > 31)) return bad;
  if (hour !== undefined && hour > 23) return bad;
  if (minute !== undefined && minute > 59) return bad;
  if (second !== undefined && second > 59) return bad;
  return null;
};

// timeinterval(second,10,2): an ISO 8601 duration with at least one part.
const DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
const timeinterval: Check = (v) => (DURATION.test(v) ? null : 'must be a duration in ISO 8601 form (e.g. PT1H2M3.5S)');

const COMPLETION = ['completed', 'incomplete', 'not attempted', 'unknown'];
const SUCCESS = ['passed', 'failed', 'unknown'];
const INTERACTION_TYPES = ['true-false', 'choice', 'fill-in', 'long-fill-in', 'likert', 'matching', 'performance', 'sequencing', 'numeric', 'other'];
const RESULTS = ['correct', 'incorrect', 'unanticipated', 'neutral'];
const NAV_REQUESTS = ['continue', 'previous', 'exit', 'exitAll', 'abandon', 'abandonAll', 'suspendAll', '_none_'];

const result: Check = (v) => (RESULTS.includes(v) || real()(v) === null ? null : `must be one of ${RESULTS.join(', ')}, or a real number`);
const navRequest: Check = (v) =>
  NAV_REQUESTS.includes(v) || /^\{target=[^}]+\}(choice|jump)$/.test(v)
    ? null
    : `must be one of ${NAV_REQUESTS.join(', ')}, {target=...}choice or {target=...}jump`;

// ---- the elements ---------------------------------------------------------------------------

const rw = (check: Check, typed = true): ElementDef => ({ access: 'rw', check, typed });
const wo = (check: Check): ElementDef => ({ access: 'wo', check, typed: true });
const ro = (fallback = ''): ElementDef => ({ access: 'ro', fallback });
const derived: ElementDef = { access: 'derived' };

function scoreElements(prefix: string): [string, ElementDef][] {
  return [
    [`${prefix}._children`, derived],
    [`${prefix}.scaled`, rw(real(-1, 1))],
    [`${prefix}.raw`, rw(real())],
    [`${prefix}.min`, rw(real())],
    [`${prefix}.max`, rw(real())],
  ];
}

/** Element names with `n` for each index, as SCORM's books write them. */
const ELEMENTS = new Map<string, ElementDef>([
  ['cmi._version', ro('1.0')],
  ['cmi.comments_from_learner._children', derived],
  ['cmi.comments_from_learner._count', derived],
  ['cmi.comments_from_learner.n.comment', rw(localized(4000), false)],
  ['cmi.comments_from_learner.n.location', rw(characterstring(250), false)],
  ['cmi.comments_from_learner.n.timestamp', rw(time)],
  ['cmi.comments_from_lms._children', derived],
  ['cmi.comments_from_lms._count', derived],
  ['cmi.comments_from_lms.n.comment', ro()],
  ['cmi.comments_from_lms.n.location', ro()],
  ['cmi.comments_from_lms.n.timestamp', ro()],
  ['cmi.completion_status', rw(vocabulary(...COMPLETION))],
  ['cmi.completion_threshold', ro()],
  ['cmi.credit', ro('credit')],
  ['cmi.entry', derived],
  ['cmi.exit', wo(vocabulary('time-out', 'suspend', 'logout', 'normal', ''))],
  ['cmi.interactions._children', derived],
  ['cmi.interactions._count', derived],
  ['cmi.interactions.n.id', rw(identifier)],
  ['cmi.interactions.n.type', rw(vocabulary(...INTERACTION_TYPES))],
  ['cmi.interactions.n.objectives._count', derived],
  ['cmi.interactions.n.objectives.n.id', rw(identifier)],
  ['cmi.interactions.n.timestamp', rw(time)],
  ['cmi.interactions.n.correct_responses._count', derived],
  ['cmi.interactions.n.correct_responses.n.pattern', rw(characterstring(MAX_RESPONSE_CHARS), false)],
  ['cmi.interactions.n.weighting', rw(real())],
  ['cmi.interactions.n.learner_response', rw(characterstring(MAX_RESPONSE_CHARS), false)],
  ['cmi.interactions.n.result', rw(result)],
  ['cmi.interactions.n.latency', rw(timeinterval)],
  ['cmi.interactions.n.description', rw(localized(DESCRIPTION_CHARS), false)],
  ['cmi.launch_data', ro()],
  ['cmi.learner_id', ro()],
  ['cmi.learner_name', ro()],
  ['cmi.learner_preference._children', derived],
  ['cmi.learner_preference.audio_level', rw(real(0))],
  ['cmi.learner_preference.language', rw(languageCheck, false)],
  ['cmi.learner_preference.delivery_speed', rw(real(0))],
  ['cmi.learner_preference.audio_captioning', rw(vocabulary('-1', '0', '1'))],
  ['cmi.location', rw(characterstring(1000), false)],
  ['cmi.max_time_allowed', ro()],
  ['cmi.mode', ro('normal')],
  ['cmi.objectives._children', derived],
  ['cmi.objectives._count', derived],
  ['cmi.objectives.n.id', rw(identifier)],
  ...scoreElements('cmi.objectives.n.score'),
  ['cmi.objectives.n.success_status', rw(vocabulary(...SUCCESS))],
  ['cmi.objectives.n.completion_status', rw(vocabulary(...COMPLETION))],
  ['cmi.objectives.n.progress_measure', rw(real(0, 1))],
  ['cmi.objectives.n.description', rw(localized(DESCRIPTION_CHARS), false)],
  ['cmi.progress_measure', rw(real(0, 1))],
  ['cmi.scaled_passing_score', ro()],
  ...scoreElements('cmi.score'),
  ['cmi.session_time', wo(timeinterval)],
  ['cmi.success_status', rw(vocabulary(...SUCCESS))],
  ['cmi.suspend_data', rw(characterstring(64000), false)],
  ['cmi.time_limit_action', ro('continue,no message')],
  ['cmi.total_time', derived],
  ['adl.nav.request', rw(navRequest)],
  ['adl.data._children', derived],
  ['adl.data._count', derived],
  ['adl.data.n.id', ro()],
  ['adl.data.n.store', rw(characterstring(64000), false)],
]);

/** Collections whose indices must run 0, 1, 2, ... and whose records need an id first. */
const COLLECTIONS: { prefix: string; idElement?: string; max: number }[] = [
  { prefix: 'cmi.interactions', idElement: 'id', max: MAX_RECORDS },
  { prefix: 'cmi.objectives', idElement: 'id', max: MAX_RECORDS },
  { prefix: 'cmi.comments_from_learner', max: MAX_RECORDS },
];

/** A name's index parts (`.3` in cmi.interactions.3.id): no leading zeros, below a million. */
const INDEX_PART = /\.(0|[1-9]\d{0,5})(?=\.|$)/g;

/** The element's definition and its indices, or undefined for a name SCORM 2004 does not have. */
function lookup(name: string): { def: ElementDef; indices: number[] } | undefined {
  if (name.startsWith('adl.nav.request_valid.')) return { def: derived, indices: [] };
  const indices: number[] = [];
  const pattern = name.replace(INDEX_PART, (_, digits: string) => {
    indices.push(Number(digits));
    return '.n';
  });
  const def = ELEMENTS.get(pattern);
  return def ? { def, indices } : undefined;
}

/** The `_count` elements the service keeps, and the first data model of an attempt. */
const COUNTS = ['cmi.comments_from_learner._count', 'cmi.comments_from_lms._count', 'cmi.interactions._count', 'cmi.objectives._count'];

/**
 * A new attempt's data model (SCORM 2004 RTE 4.2): not attempted, from the beginning, in normal
 * mode, for this learner, with every collection empty.
 */
export function initialDataModel(learner: { id: string; name: string }): DataModel {
  const model: DataModel = {
    'cmi.completion_status': 'not attempted',
    'cmi.entry': 'ab-initio',
    'cmi.mode': 'normal',
    'cmi.learner_id': learner.id,
    'cmi.learner_name': learner.name,
  };
  for (const count of COUNTS) model[count] = '0';
  return model;
}

const NUL = String.fromCharCode(0);

/** Reads a commit's JSON text: an object of element → string (numbers are taken as their text). */
export function parseCommit(text: string): { ok: true; commit: Record<string, string> } | { ok: false; error: string; tooLarge?: boolean } {
  if (text.length > MAX_COMMIT_CHARS) return { ok: false, tooLarge: true, error: `cmi_datamodel is larger than ${MAX_COMMIT_CHARS} characters.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: 'cmi_datamodel is not valid JSON: send the data model as a JSON object of element names and values.' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: 'cmi_datamodel must be a JSON object of element names and values.' };
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > MAX_ELEMENTS) return { ok: false, tooLarge: true, error: `cmi_datamodel holds more than ${MAX_ELEMENTS} elements.` };
  const commit: Record<string, string> = {};
  for (const [name, value] of entries) {
    // PostgreSQL's jsonb cannot hold a NUL character, and no SCORM value needs one.
    if (name.includes(NUL) || (typeof value === 'string' && value.includes(NUL))) {
      return { ok: false, error: `${name.split(NUL).join('')}: a SCORM value may not hold a NUL character.` };
    }
    if (typeof value === 'string') commit[name] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) commit[name] = String(value);
    else return { ok: false, error: `${name}: a SCORM value is a string (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}).` };
  }
  return { ok: true, commit };
}

/**
 * The stored model after this commit, or why the commit is refused (naming the element). The
 * result's derived elements are computed again: the `_count`s from the records present, and
 * `cmi.entry` "resume" once the attempt is incomplete or suspended (the original's rule, which
 * the newer web client relies on to resume), else as it was.
 */
export function applyCommit(stored: DataModel, commit: Record<string, string>): CommitCheck {
  const next: DataModel = { ...stored };
  for (const [name, value] of Object.entries(commit)) {
    const found = lookup(name);
    if (!found) return refuse(`${name} is not an element of the SCORM 2004 data model.`);
    const { def, indices } = found;
    if ((indices[0] ?? 0) >= MAX_RECORDS || (indices[1] ?? 0) >= MAX_NESTED_RECORDS) {
      return refuse(`${name}: the index is beyond what this service keeps (${MAX_RECORDS} records, ${MAX_NESTED_RECORDS} within an interaction).`);
    }
    switch (def.access) {
      case 'derived':
        break;
      case 'ro': {
        const held = stored[name] ?? def.fallback ?? '';
        if (value !== held) return refuse(`${name} is read-only: the package may not set it.`);
        break;
      }
      default: {
        if (def.typed && value === '') {
          delete next[name];
          break;
        }
        const why = def.check?.(value);
        if (why) return refuse(`${name} ${why}.`);
        next[name] = value;
      }
    }
  }
  const index = recordIndex(next);
  const structural = structureError(next, index);
  if (structural) return refuse(structural);
  deriveElements(next, index);
  if (JSON.stringify(next).length > MAX_DATAMODEL_CHARS) {
    return { ok: false, tooLarge: true, error: `The data model would be larger than ${MAX_DATAMODEL_CHARS} characters.` };
  }
  return { ok: true, model: next };
}

const refuse = (error: string): CommitCheck => ({ ok: false, error });

type RecordIndex = Map<string, Set<number>>;
const NONE: ReadonlySet<number> = new Set();

/**
 * Every collection's indices present, in one pass over the names: `cmi.interactions` → {0, 1},
 * `cmi.interactions.0.objectives` → {0}. Linear in the model, which a commit's checks read many
 * times (a lookup per interaction would make a large quiz's commit quadratic).
 */
function recordIndex(model: DataModel): RecordIndex {
  const index: RecordIndex = new Map();
  for (const name of Object.keys(model)) {
    for (const m of name.matchAll(INDEX_PART)) {
      const prefix = name.slice(0, m.index);
      const found = index.get(prefix);
      if (found) found.add(Number(m[1]));
      else index.set(prefix, new Set([Number(m[1])]));
    }
  }
  return index;
}

const indicesIn = (index: RecordIndex, prefix: string): ReadonlySet<number> => index.get(prefix) ?? NONE;

function denseError(indices: ReadonlySet<number>, prefix: string): string | null {
  for (let i = 0; i < indices.size; i++) if (!indices.has(i)) return `${prefix}.${i} is missing: records are numbered 0, 1, 2, ... without gaps.`;
  return null;
}

/**
 * What SCORM requires between elements: records numbered without gaps, an interaction's or
 * objective's id set before its other elements, an interaction's type before its correct
 * responses, and the responses of a true-false interaction true or false.
 */
function structureError(model: DataModel, index: RecordIndex): string | null {
  for (const { prefix, idElement } of COLLECTIONS) {
    const indices = indicesIn(index, prefix);
    const gap = denseError(indices, prefix);
    if (gap) return gap;
    if (!idElement) continue;
    for (const i of indices) {
      if (model[`${prefix}.${i}.${idElement}`] === undefined) return `${prefix}.${i}.${idElement} must be set before the record's other elements.`;
    }
  }
  for (const i of indicesIn(index, 'cmi.interactions')) {
    const at = `cmi.interactions.${i}`;
    for (const sub of ['objectives', 'correct_responses']) {
      const gap = denseError(indicesIn(index, `${at}.${sub}`), `${at}.${sub}`);
      if (gap) return gap;
    }
    const type = model[`${at}.type`];
    const patterns = [...indicesIn(index, `${at}.correct_responses`)].map((j) => `${at}.correct_responses.${j}.pattern`);
    if (patterns.length > 0 && type === undefined) return `${at}.type must be set before its correct responses.`;
    // Only true-false is checked by type: the other types' response forms differ between packages
    // (Numbas writes a numeric range as min:max, SCORM as min[:]max), and a refused commit loses the
    // student's work.
    const response = model[`${at}.learner_response`];
    if (type === 'true-false') {
      for (const p of patterns) if (!['true', 'false'].includes(model[p])) return `${p} must be true or false for a true-false interaction.`;
      if (response !== undefined && !['true', 'false'].includes(response)) return `${at}.learner_response must be true or false for a true-false interaction.`;
      if (patterns.length > 1) return `${at}.correct_responses: a true-false interaction has one correct response.`;
    }
  }
  for (const i of indicesIn(index, 'adl.data')) {
    if (model[`adl.data.${i}.id`] === undefined) return `adl.data.${i}.store names a data store this package does not declare.`;
  }
  return null;
}

/** The derived elements' names (cmi.entry aside), without a lookup: counts, _children, total time, navigation validity. */
const isDerived = (name: string): boolean =>
  name.endsWith('._count') || name.endsWith('._children') || name === 'cmi.total_time' || name.startsWith('adl.nav.request_valid.');

/** Writes the elements the service derives: the counts of each collection, and cmi.entry. */
function deriveElements(model: DataModel, index: RecordIndex): void {
  for (const name of Object.keys(model)) if (name !== 'cmi.entry' && isDerived(name)) delete model[name];
  for (const count of COUNTS) model[count] = String(indicesIn(index, count.slice(0, -'._count'.length)).size);
  for (const i of indicesIn(index, 'cmi.interactions')) {
    for (const sub of ['objectives', 'correct_responses']) {
      model[`cmi.interactions.${i}.${sub}._count`] = String(indicesIn(index, `cmi.interactions.${i}.${sub}`).size);
    }
  }
  if (model['cmi.completion_status'] === 'incomplete' || model['cmi.exit'] === 'suspend') model['cmi.entry'] = 'resume';
  else model['cmi.entry'] ??= 'ab-initio';
}

/** The facts of a data model that the attempt's columns keep (SCORM 2004 RTE 4.2.4, 4.2.22, 4.2.20.1). */
export interface DataModelFacts {
  completed: boolean;
  /** What the package reported: cmi.success_status is "passed". */
  reportedPass: boolean;
  scoreScaled: number | null;
  /** cmi.exit is "suspend": the learner means to come back to this attempt. */
  suspended: boolean;
  /** Interactions recorded, and how many of them the package judged incorrect or unanticipated. */
  interactions: number;
  wrongInteractions: number;
}

export function dataModelFacts(model: DataModel): DataModelFacts {
  const score = model['cmi.score.scaled'];
  const indices = indicesIn(recordIndex(model), 'cmi.interactions');
  let wrong = 0;
  for (const i of indices) {
    const r = model[`cmi.interactions.${i}.result`];
    if (r === 'incorrect' || r === 'unanticipated') wrong++;
  }
  return {
    completed: model['cmi.completion_status'] === 'completed',
    reportedPass: model['cmi.success_status'] === 'passed',
    scoreScaled: score !== undefined && REAL.test(score) ? Number(score) : null,
    suspended: model['cmi.exit'] === 'suspend',
    interactions: indices.size,
    wrongInteractions: wrong,
  };
}
