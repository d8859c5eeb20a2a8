// Which code of a task definition is compared (workers/tasks/code-similarity.ts) and shown
// (GET /api/tasks/{id}/similarities/{id}/contents/{idx}): the latest submission of each student,
// or of each group once, with the code files its checks name.
import { sql } from 'kysely';
import type { PlagiarismCheck, UploadRequirement } from '../../../schema/units.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { MAX_SUBMISSION_FILE_BYTES } from '../../domain/submission-files.ts';
import { readAll, type Storage } from '../../storage/index.ts';

export interface CodeCheckRule {
  /** Upload-requirement keys whose files are compared. */
  keys: string[];
  /** Per key, a file-name pattern (`*`, `?`) the uploaded file's name must match; absent = any. */
  patterns: Map<string, RegExp>;
}

/**
 * The definition's `plagiarism_checks` name the requirements to compare (with a file-name
 * pattern each); without checks, every code requirement is compared.
 */
export function codeCheckRule(requirements: UploadRequirement[], checks: PlagiarismCheck[]): CodeCheckRule {
  const code = new Set(requirements.filter((r) => r.type === 'code').map((r) => r.key));
  if (checks.length === 0) return { keys: [...code], patterns: new Map() };
  const patterns = new Map<string, RegExp>();
  for (const check of checks) {
    if (!code.has(check.key)) continue;
    const pattern = check.pattern.trim();
    if (pattern && pattern !== '*') patterns.set(check.key, globPattern(pattern));
  }
  return { keys: [...new Set(checks.map((c) => c.key).filter((k) => code.has(k)))], patterns };
}

function globPattern(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

export interface CodeFile {
  key: string;
  originalFilename: string;
  storagePath: string;
}

/** One compared body of code: a submission, the task that holds it, and every task it counts for. */
export interface LatestCode {
  submissionId: number;
  /** The task the submission was made on. */
  taskId: number;
  /** That task, or every task of its group submission. */
  taskIds: number[];
  files: CodeFile[];
}

export interface DefinitionCodeSettings {
  id: number;
  unitId: number;
  warnPct: number;
  rule: CodeCheckRule;
}

export async function definitionCodeSettings(em: Em, taskDefinitionId: number): Promise<DefinitionCodeSettings | null> {
  const d = await db(em)
    .selectFrom('task_definitions')
    .select(['id', 'unit_id', 'plagiarism_warn_pct', 'upload_requirements', 'plagiarism_checks'])
    .where('id', '=', taskDefinitionId)
    .executeTakeFirst();
  if (!d) return null;
  const rule = codeCheckRule((d.upload_requirements ?? []) as UploadRequirement[], (d.plagiarism_checks ?? []) as PlagiarismCheck[]);
  return { id: d.id, unitId: d.unit_id, warnPct: d.plagiarism_warn_pct, rule };
}

/** The rule's code files of these submissions, by submission, in upload-requirement order. */
export async function codeFilesOf(em: Em, submissionIds: number[], rule: CodeCheckRule): Promise<Map<number, CodeFile[]>> {
  const bySubmission = new Map<number, CodeFile[]>();
  if (submissionIds.length === 0 || rule.keys.length === 0) return bySubmission;
  const rows = await db(em)
    .selectFrom('submission_files')
    .select(['submission_id', 'key', 'original_filename', 'storage_path'])
    .where('submission_id', 'in', submissionIds)
    .where('kind', '=', 'code')
    .where('key', 'in', rule.keys)
    .orderBy('submission_id')
    .orderBy('idx')
    .execute();
  for (const r of rows) {
    const pattern = rule.patterns.get(r.key);
    if (pattern && !pattern.test(r.original_filename)) continue;
    const list = bySubmission.get(r.submission_id) ?? [];
    list.push({ key: r.key, originalFilename: r.original_filename, storagePath: r.storage_path });
    bySubmission.set(r.submission_id, list);
  }
  return bySubmission;
}

/**
 * The latest submission with compared code of every student's task of the definition; a group
 * submission counts once, for all its members' tasks.
 */
export async function latestCode(em: Em, settings: DefinitionCodeSettings): Promise<LatestCode[]> {
  if (settings.rule.keys.length === 0) return [];
  const k = db(em);
  const latest = await k
    .selectFrom('tasks as t')
    .innerJoin('task_submissions as s', 's.task_id', 't.id')
    .select(['s.id as submission_id', 't.id as task_id', 't.group_submission_id'])
    .distinctOn([sql`t.group_submission_id`, sql`case when t.group_submission_id is null then t.id end`])
    .where('t.task_definition_id', '=', settings.id)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('submission_files as f')
          .select(sql`1`.as('one'))
          .whereRef('f.submission_id', '=', 's.id')
          .where('f.kind', '=', 'code')
          .where('f.key', 'in', settings.rule.keys),
      ),
    )
    .orderBy(sql`t.group_submission_id`)
    .orderBy(sql`case when t.group_submission_id is null then t.id end`)
    .orderBy('s.submitted_at', 'desc')
    .orderBy('s.id', 'desc')
    .execute();
  const groups = [...new Set(latest.map((r) => r.group_submission_id).filter((g): g is number => g !== null))];
  const members = new Map<number, number[]>();
  if (groups.length > 0) {
    const rows = await k.selectFrom('tasks').select(['id', 'group_submission_id']).where('group_submission_id', 'in', groups).orderBy('id').execute();
    for (const r of rows) members.set(r.group_submission_id!, [...(members.get(r.group_submission_id!) ?? []), r.id]);
  }
  const files = await codeFilesOf(
    em,
    latest.map((r) => r.submission_id),
    settings.rule,
  );
  return latest
    .filter((r) => files.has(r.submission_id))
    .map((r) => ({
      submissionId: r.submission_id,
      taskId: r.task_id,
      taskIds: r.group_submission_id === null ? [r.task_id] : (members.get(r.group_submission_id) ?? [r.task_id]),
      files: files.get(r.submission_id)!,
    }));
}

/**
 * The files' text (UTF-8; a missing file reads as empty). The checker compares whole texts, so each
 * is read whole, bounded by the limit it was uploaded under.
 */
export async function readCode(storage: Storage, files: CodeFile[]): Promise<{ filename: string; content: string }[]> {
  const out: { filename: string; content: string }[] = [];
  for (const f of files) {
    const bytes = await readAll(storage, f.storagePath, MAX_SUBMISSION_FILE_BYTES);
    out.push({ filename: f.originalFilename, content: bytes ? bytes.toString('utf8') : '' });
  }
  return out;
}

/** How a moss similarity names the two compared submissions (in `report_path`), and back. */
export const mossReport = (submissionId: number, otherSubmissionId: number) => `moss/${submissionId}/${otherSubmissionId}`;

export function parseMossReport(reportPath: string | null): { submissionId: number; otherSubmissionId: number } | null {
  const m = /^moss\/(\d+)\/(\d+)$/.exec(reportPath ?? '');
  return m ? { submissionId: Number(m[1]), otherSubmissionId: Number(m[2]) } : null;
}
