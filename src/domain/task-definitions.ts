// Rules of a task definition that need no database: the JSON formats carried as strings
// (beyond-spec.md §1.4), grades, stars, and the order of its dates.
import { UPLOAD_KINDS, type UploadKind } from './vocabulary.ts';

/** One file a student must upload for a task; `key` is the multipart field name (file0, file1, ...). */
export interface UploadRequirement {
  key: string;
  name: string;
  type: UploadKind;
  tii_check?: boolean;
  tii_pct?: number;
}

/** A code-similarity check configured on a task definition (MOSS style). */
export interface PlagiarismCheck {
  key: string;
  type: string;
  pattern: string;
}

export class DefinitionError extends Error {}

/** Target grades: 0 Pass, 1 Credit, 2 Distinction, 3 High Distinction. */
export const TARGET_GRADES = [0, 1, 2, 3] as const;
export const MAX_QUALITY_PTS = 100;
export const MAX_DESCRIPTION = 4095;

const REQUIREMENT_SHAPE = '[ { "key": "...", "name": "...", "type": "...", "tii_check": "...", "tii_pct": "..."}, { ... } ]';
const REQUIREMENT_KEYS = new Set(['key', 'name', 'type', 'tii_check', 'tii_pct']);

/** JSON text (or an already parsed value); blank or null means none. */
function jsonValue(value: unknown, field: string): unknown {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return [];
  try {
    return JSON.parse(value);
  } catch {
    throw new DefinitionError(`${field} is not valid JSON`);
  }
}

/**
 * The files a student must upload, checked item by item: each an object with `key`, `name` and
 * `type` (document, code or image), optionally `tii_check` and `tii_pct`, and nothing else.
 */
export function parseUploadRequirements(value: unknown): UploadRequirement[] {
  const items = jsonValue(value, 'Upload requirements');
  if (!Array.isArray(items)) throw new DefinitionError(`Upload requirements is not in a valid format! Should be ${REQUIREMENT_SHAPE}. Did not contain array.`);
  return items.map((item: unknown, i) => {
    const n = i + 1;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      throw new DefinitionError(`Upload requirements is not in a valid format! Should be ${REQUIREMENT_SHAPE}. Array did not contain hashes for item ${n}.`);
    }
    const req = item as Record<string, unknown>;
    if (!('key' in req) || !('name' in req) || !('type' in req)) {
      throw new DefinitionError(
        `Upload requirements is not in a valid format! Must contain [ { "key": "...", "name": "...", "type": "..."}, { ... } ]. Missing a key for item ${n}.`,
      );
    }
    const extra = Object.keys(req).filter((k) => !REQUIREMENT_KEYS.has(k));
    if (extra.length > 0) throw new DefinitionError(`Upload requirements has additional values for item ${n} --> ${Object.keys(req).join(' ')}.`);
    if (typeof req.key !== 'string' || typeof req.name !== 'string' || req.key.trim() === '' || req.name.trim() === '') {
      throw new DefinitionError(`Upload requirements item ${n} needs a non-empty key and name`);
    }
    // Any other type would make every submission fail its file check, so it is refused here.
    if (!UPLOAD_KINDS.includes(req.type as UploadKind)) {
      throw new DefinitionError(`Upload requirements item ${n} has type ${JSON.stringify(req.type)}; expected one of ${UPLOAD_KINDS.join(', ')}`);
    }
    const out: UploadRequirement = { key: req.key, name: req.name, type: req.type as UploadKind };
    if (req.tii_check !== undefined) out.tii_check = req.tii_check === true || req.tii_check === 1 || req.tii_check === 'true';
    if (req.tii_pct !== undefined) {
      const pct = Number(req.tii_pct);
      if (!Number.isInteger(pct)) throw new DefinitionError(`Upload requirements item ${n} has a tii_pct that is not a whole number`);
      out.tii_pct = pct;
    }
    return out;
  });
}

/** Code-similarity checks: objects with exactly `key`, `type` (starting `moss `) and `pattern` (no `/` or `..`). */
export function parsePlagiarismChecks(value: unknown): PlagiarismCheck[] {
  const items = jsonValue(value, 'Plagiarism checks');
  const shape = 'Should be [ { "key": "...", "type": "moss ...", "pattern": "..."}, { ... } ]';
  if (!Array.isArray(items)) throw new DefinitionError(`Plagiarism checks is not in a valid format! ${shape}. Did not contain array.`);
  return items.map((item: unknown, i) => {
    const n = i + 1;
    const check = item as Record<string, unknown>;
    const keys = item && typeof item === 'object' && !Array.isArray(item) ? Object.keys(check).sort().join(',') : '';
    if (keys !== 'key,pattern,type' || ![check.key, check.type, check.pattern].every((v) => typeof v === 'string')) {
      throw new DefinitionError(`Plagiarism checks is not in a valid format! ${shape}. Item ${n} must have exactly key, type and pattern.`);
    }
    const { key, type, pattern } = check as unknown as PlagiarismCheck;
    if (!type.startsWith('moss ')) throw new DefinitionError(`Plagiarism checks item ${n} has type "${type}"; it must start with "moss "`);
    if (pattern.includes('/') || pattern.includes('..')) throw new DefinitionError(`Plagiarism checks item ${n} has a pattern with "/" or ".."`);
    return { key, type, pattern };
  });
}

/** The draft learning summary is a single document (beyond-spec.md §1.2). */
export function isSingleDocument(requirements: readonly UploadRequirement[]): boolean {
  return requirements.length === 1 && requirements[0]!.type === 'document';
}

export interface DefinitionValues {
  targetGrade: number;
  maxQualityPts: number;
  startDate: string;
  targetDate: string;
  dueDate: string | null;
}

/** The first rule the values break, as a `Validation failed: ...` message, or undefined. */
export function definitionProblem(d: DefinitionValues): string | undefined {
  if (!(TARGET_GRADES as readonly number[]).includes(d.targetGrade)) return `Target grade ${d.targetGrade} is not a valid target grade`;
  if (d.maxQualityPts < 0 || d.maxQualityPts > MAX_QUALITY_PTS) return `Max quality pts must be between 0 and ${MAX_QUALITY_PTS}`;
  // Days are 'YYYY-MM-DD', so text order is date order.
  if (d.targetDate < d.startDate) return 'Target date must not be before the start date';
  if (d.dueDate !== null && d.dueDate < d.targetDate) return 'Due date must not be before the target date';
  return undefined;
}
