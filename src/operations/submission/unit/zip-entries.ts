// The rows behind the unit-wide zips, each in one query whatever the unit's size. Entry names are
// labels people typed (usernames, group names, abbreviations), made safe and unique here.
import { basename } from 'node:path';
import { sql } from 'kysely';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { GRADE_NAMES } from '../../../domain/task-rules.ts';
import { safeEntryPart, type ZipEntryOut } from '../../../lib/zip.ts';
import { storageKeys, zipEntryOpener, type Storage } from '../../../storage/index.ts';

/**
 * The zip's entries, opened one at a time as the zip reaches them. A file that no longer exists
 * is left out (the database may list a PDF not written yet); one that vanishes after it was
 * found cuts the download off rather than silently missing.
 */
async function* storedEntries(storage: Storage, files: Iterable<{ name: string; key: string }>, at: Date): AsyncGenerator<ZipEntryOut> {
  for (const { name, key } of files) {
    if (!(await storage.exists(key))) continue;
    yield {
      name,
      mtime: at,
      compress: false,
      open: zipEntryOpener(storage, key),
    };
  }
}

/** A distinct label per entry: a second `x` becomes `x-<id>` (two groups may share a name with a student). */
function uniqueLabels() {
  const used = new Set<string>();
  return (label: string, id: number): string => {
    let name = safeEntryPart(label);
    if (used.has(name.toLowerCase())) name = `${name}-${id}`;
    used.add(name.toLowerCase());
    return name;
  };
}

interface PortfolioRow {
  id: number;
  username: string;
  grade: number;
  tutors: string | null;
}

/**
 * `<Pass|Credit|Distinction|High Distinction>/<username>-portfolio (<Tutor Name (ABBR)> ...).pdf` for every enrolled
 * student with a compiled portfolio, filed by submitted grade (else target grade), naming the
 * tutors of the student's tutorials.
 */
export async function portfolioEntries(em: Em, storage: Storage, unitId: number, at: Date): Promise<AsyncGenerator<ZipEntryOut>> {
  const { rows } = await sql<PortfolioRow>`
    select p.id, u.username, coalesce(p.submitted_grade, p.target_grade) as grade,
           (select string_agg(concat(tu.first_name, ' ', tu.last_name, ' (', t.abbreviation, ')'), ' ' order by t.abbreviation, e.id)
              from tutorial_enrolments e
              join tutorials t on t.id = e.tutorial_id
              left join unit_roles r on r.id = t.tutor_id
              left join users tu on tu.id = r.user_id
             where e.project_id = p.id) as tutors
      from projects p join users u on u.id = p.user_id
     where p.unit_id = ${unitId} and p.enrolled and p.portfolio_production_date is not null
     order by grade, u.username, p.id`.execute(db(em));
  const label = uniqueLabels();
  const files = rows.map((r) => {
    const folder = GRADE_NAMES[r.grade] ?? 'Pass';
    const tutors = r.tutors ? ` (${r.tutors})` : '';
    return { name: `${folder}/${label(`${r.username}-portfolio${tutors}`, r.id)}.pdf`, key: storageKeys.portfolio(r.id) };
  });
  return storedEntries(storage, files, at);
}

interface TaskRow {
  id: number;
  label: string;
  pdf_path: string | null;
}

/** The definition's tasks, once per group submission (the submitter's, else the lowest id), named by student or group. */
async function tasksOf(em: Em, definitionId: number): Promise<TaskRow[]> {
  const { rows } = await sql<TaskRow>`
    select distinct on (coalesce(-t.group_submission_id, t.id)) t.id, t.pdf_path, coalesce(g.name, u.username) as label
      from tasks t
      join projects p on p.id = t.project_id
      join users u on u.id = p.user_id
      left join group_submissions gs on gs.id = t.group_submission_id
      left join groups g on g.id = gs.group_id
     where t.task_definition_id = ${definitionId}
     order by coalesce(-t.group_submission_id, t.id), (gs.submitted_by_id = t.project_id) desc nulls last, t.id`.execute(db(em));
  return rows.sort((a, b) => a.label.localeCompare(b.label) || a.id - b.id);
}

/** `<ABBR>-pdfs/<username or group name>.pdf` for every task of the definition with a PDF. */
export async function taskPdfEntries(em: Em, storage: Storage, definitionId: number, abbreviation: string, at: Date): Promise<AsyncGenerator<ZipEntryOut>> {
  const folder = `${safeEntryPart(abbreviation)}-pdfs`;
  const label = uniqueLabels();
  const files = (await tasksOf(em, definitionId)).flatMap((t) => (t.pdf_path ? [{ name: `${folder}/${label(t.label, t.id)}.pdf`, key: t.pdf_path }] : []));
  return storedEntries(storage, files, at);
}

/**
 * `<ABBR>-submissions/<username or group name>/<NNN-type.ext>`: the files of each task's latest
 * upload (for group work, the latest across the group's tasks).
 */
export async function taskFileEntries(em: Em, storage: Storage, definitionId: number, abbreviation: string, at: Date): Promise<AsyncGenerator<ZipEntryOut>> {
  const { rows } = await sql<{ label: string; task_id: number; storage_path: string }>`
    with latest as (
      select distinct on (coalesce(-t.group_submission_id, t.id)) s.id, t.id as task_id, coalesce(g.name, u.username) as label
        from tasks t
        join projects p on p.id = t.project_id
        join users u on u.id = p.user_id
        left join group_submissions gs on gs.id = t.group_submission_id
        left join groups g on g.id = gs.group_id
        join task_submissions s on s.task_id = t.id
       where t.task_definition_id = ${definitionId}
         and exists (select 1 from submission_files f where f.submission_id = s.id)
       order by coalesce(-t.group_submission_id, t.id), s.submitted_at desc, s.id desc)
    select l.label, l.task_id, f.storage_path from latest l join submission_files f on f.submission_id = l.id
     order by l.task_id, f.idx`.execute(db(em));
  const folder = `${safeEntryPart(abbreviation)}-submissions`;
  const label = uniqueLabels();
  const named = new Map<number, string>();
  // By name as people read it (the database's collation puts capitals first); a stable sort keeps the files' order.
  rows.sort((a, b) => a.label.localeCompare(b.label) || a.task_id - b.task_id);
  const files = rows.map((r) => {
    let who = named.get(r.task_id);
    if (who === undefined) {
      who = label(r.label, r.task_id);
      named.set(r.task_id, who);
    }
    return { name: `${folder}/${who}/${basename(r.storage_path)}`, key: r.storage_path };
  });
  return storedEntries(storage, files, at);
}
