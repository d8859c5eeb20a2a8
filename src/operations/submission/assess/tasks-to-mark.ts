// The work waiting for one tutor in a unit: tasks ready for feedback or needing help whose student
// is in one of the tutor's tutorials (the tutorial of the definition's stream, as tutorFor judges
// it), group work once per group submission. One query for the tasks, their names and the last
// comments, whatever their number.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../../schema/enums.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { groupUsername, type MarkRow } from '../../../domain/marking-package.ts';

export interface TaskToMark extends MarkRow {
  /** The task the row and its PDF stand for (for group work, the submitter's task when it is waiting). */
  taskId: number;
  /** The stored PDF, when it is ready (none while a submission is still being processed). */
  pdfKey: string | null;
}

/** A comment's text and time, as json_build_array gives them. */
type Said = [text: string, at: string] | null;

interface Found {
  id: number;
  status: TaskStatus;
  pdf_path: string | null;
  processing: boolean;
  group_submission_id: number | null;
  submitter: boolean;
  username: string;
  first_name: string;
  last_name: string;
  tutorial: string;
  abbreviation: string;
  max_quality_pts: number;
  group_id: number | null;
  group_name: string | null;
  group_tutorial: string | null;
  /** The latest by the student, by anyone but the marker, and by the marker. */
  sc: Said;
  oc: Said;
  mc: Said;
}

// The latest text comment on the task matching `who` (its text and time).
const lastComment = (who: ReturnType<typeof sql>) => sql`(
  select json_build_array(c.comment, c.created_at) from task_comments c
   where c.task_id = t.id and c.kind = 'text' and ${who}
   order by c.created_at desc, c.id desc limit 1)`;

/**
 * The rows of marks.csv for `tutorId`'s tutorials in the unit, by tutorial, student (groups after
 * students), then the definitions' order; comments are `markerId`'s and the student's (for group
 * work, the latest not by the marker across the group's waiting tasks).
 */
export async function tasksToMark(em: Em, unitId: number, tutorId: number, markerId: number): Promise<TaskToMark[]> {
  const { rows } = await sql<Found>`
    select t.id, t.status, t.pdf_path, t.group_submission_id,
           exists (select 1 from task_submissions s where s.task_id = t.id and s.processing) as processing,
           coalesce(gs.submitted_by_id = t.project_id, false) as submitter,
           u.username, u.first_name, u.last_name, tu.abbreviation as tutorial,
           d.abbreviation, d.max_quality_pts,
           g.id as group_id, g.name as group_name, gt.abbreviation as group_tutorial,
           ${lastComment(sql`c.author_id = p.user_id`)} as sc,
           ${lastComment(sql`c.author_id <> ${markerId}`)} as oc,
           ${lastComment(sql`c.author_id = ${markerId}`)} as mc
      from tasks t
      join projects p on p.id = t.project_id
      join users u on u.id = p.user_id
      join task_definitions d on d.id = t.task_definition_id
      join lateral (
        select tu.abbreviation, tu.tutor_id from tutorial_enrolments e
          join tutorials tu on tu.id = e.tutorial_id
         where e.project_id = p.id
           and (tu.tutorial_stream_id = d.tutorial_stream_id or tu.tutorial_stream_id is null)
         order by (tu.tutorial_stream_id is null), e.id limit 1) tu on true
      join unit_roles r on r.id = tu.tutor_id
      left join group_submissions gs on gs.id = t.group_submission_id
      left join groups g on g.id = gs.group_id
      left join tutorials gt on gt.id = g.tutorial_id
     where p.unit_id = ${unitId} and p.enrolled and r.user_id = ${tutorId}
       and t.status in ('ready_for_feedback', 'need_help')
     order by tu.abbreviation, u.username, d.target_date, d.abbreviation, t.id`.execute(db(em));

  const individual: TaskToMark[] = [];
  const groups = new Map<number, Found[]>();
  for (const r of rows) {
    if (r.group_submission_id === null || r.group_id === null) {
      individual.push({
        taskId: r.id,
        pdfKey: pdfKeyOf(r),
        username: r.username,
        name: `${r.first_name} ${r.last_name}`.trim(),
        tutorial: r.tutorial,
        abbreviation: r.abbreviation,
        studentComment: r.sc?.[0] ?? '',
        markerComment: r.mc?.[0] ?? '',
        needHelp: r.status === 'need_help',
        maxQualityPts: r.max_quality_pts,
      });
      continue;
    }
    const members = groups.get(r.group_submission_id) ?? [];
    members.push(r);
    groups.set(r.group_submission_id, members);
  }

  const grouped: TaskToMark[] = [];
  for (const [submissionId, members] of groups) {
    // The submitter's task stands for the group when it is waiting; else the first member's.
    const lead = members.find((m) => m.submitter) ?? members[0];
    const latest = (pick: (m: Found) => Said) => members.map(pick).reduce<Said>((best, c) => (c && (!best || c[1] > best[1]) ? c : best), null)?.[0] ?? '';
    grouped.push({
      taskId: lead.id,
      pdfKey: pdfKeyOf(lead),
      username: groupUsername(lead.group_id!, submissionId),
      name: lead.group_name!,
      tutorial: lead.group_tutorial ?? lead.tutorial,
      abbreviation: lead.abbreviation,
      studentComment: latest((m) => m.oc),
      markerComment: latest((m) => m.mc),
      needHelp: lead.status === 'need_help',
      maxQualityPts: lead.max_quality_pts,
    });
  }
  return [...individual, ...grouped];
}

const pdfKeyOf = (r: { pdf_path: string | null; processing: boolean }): string | null => (r.processing ? null : r.pdf_path);
