// What a queued mail says and to whom, read when it is sent: the recipient's preference and the
// unit's send_notifications are checked here, so a mail queued before someone opted out is not sent.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { tutorFor } from '../tasks/people.ts';
import type { MailPayload } from '../../mail/payload.ts';
import { isMidUnit, topTasks, unitGetsSummaries, type PlannedTask } from '../../domain/weekly-summaries.ts';
import { createInvitation, INVITATION_DAYS } from '../invitations/invitation-tokens.ts';
import {
  discussExpiredMail,
  discussWarningMail,
  feedbackReadyMail,
  invitationMail,
  portfolioMail,
  taskPdfFailedMail,
  weeklyStaffSummaryMail,
  weeklyStudentSummaryMail,
  type MailContent,
  type Signature,
  type StaffFigures,
} from '../../mail/templates.ts';
import { staffFigures, unitWeek, weekBounds } from './weekly-figures.ts';
import { ROLE } from '../../policy/index.ts';

export interface Person {
  name: string;
  address: string;
}

export type Composed = { send: true; to: Person; replyTo: Person | null; onBehalfOf: string | null; content: MailContent } | { send: false; why: string };

export interface MailSettings {
  product: string;
  webUrl: string | null;
  /** This service's own address, for links to pages it serves when WEB_CLIENT_URL is not set. */
  serviceUrl?: string | null;
}

interface Recipient {
  user_id: number;
  first_name: string;
  last_name: string;
  email: string;
  receive_task_notifications: boolean;
  receive_portfolio_notifications: boolean;
  receive_feedback_notifications: boolean;
  unit_id: number;
  unit_name: string;
  send_notifications: boolean;
  active: boolean;
  start_date: string;
  end_date: string;
  convenor_name: string | null;
  convenor_email: string | null;
}

interface ProjectRecipient extends Recipient {
  project_id: number;
  enrolled: boolean;
  target_grade: number;
  portfolio_done: boolean;
  portfolio_auto_generated: boolean;
}

const UNIT_AND_CONVENOR = sql`
  un.id as unit_id, un.name as unit_name, un.send_notifications, un.active,
  un.start_date::text as start_date, un.end_date::text as end_date,
  nullif(trim(cu.first_name || ' ' || cu.last_name), '') as convenor_name, cu.email as convenor_email`;
const USER_COLUMNS = sql`
  u.id as user_id, u.first_name, u.last_name, u.email,
  u.receive_task_notifications, u.receive_portfolio_notifications, u.receive_feedback_notifications`;

async function projectRecipient(em: Em, projectId: number): Promise<ProjectRecipient | undefined> {
  const { rows } = await sql<ProjectRecipient>`
    select p.id as project_id, p.enrolled, p.target_grade, p.portfolio_production_date is not null as portfolio_done,
           p.portfolio_auto_generated, ${USER_COLUMNS}, ${UNIT_AND_CONVENOR}
      from projects p
      join users u on u.id = p.user_id
      join units un on un.id = p.unit_id
      left join unit_roles cr on cr.id = un.main_convenor_id
      left join users cu on cu.id = cr.user_id
     where p.id = ${projectId}`.execute(db(em));
  return rows[0];
}

async function person(em: Em, userId: number | null): Promise<Person | null> {
  if (userId === null) return null;
  const u = await db(em).selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', userId).executeTakeFirst();
  return u ? { name: `${u.first_name} ${u.last_name}`.trim(), address: u.email } : null;
}

const nameOf = (r: Pick<Recipient, 'first_name' | 'last_name' | 'email'>): Person => ({ name: `${r.first_name} ${r.last_name}`.trim(), address: r.email });
const convenorOf = (r: Recipient): Person | null => (r.convenor_email ? { name: r.convenor_name ?? r.convenor_email, address: r.convenor_email } : null);
const skip = (why: string): Composed => ({ send: false, why });

/** The gates every mail passes: an address, the unit's notifications, and the user's preference. */
function gate(
  r: Recipient | undefined,
  preference: keyof Pick<Recipient, 'receive_task_notifications' | 'receive_portfolio_notifications' | 'receive_feedback_notifications'>,
): string | null {
  if (!r) return 'its recipient no longer exists';
  if (!r.email) return 'the recipient has no e-mail address';
  if (!r.send_notifications) return `unit ${r.unit_id} has notifications turned off`;
  if (!r[preference]) return `user ${r.user_id} turned off ${preference.replace(/_/g, ' ')}`;
  return null;
}

function composed(settings: MailSettings, r: Recipient, speaker: Person | null, build: (signature: Signature) => MailContent): Composed {
  const signature: Signature = { product: settings.product, onBehalfOf: speaker?.name ?? null, webUrl: settings.webUrl };
  return { send: true, to: nameOf(r), replyTo: speaker, onBehalfOf: speaker?.name ?? null, content: build(signature) };
}

export async function composeMail(em: Em, mail: MailPayload, settings: MailSettings): Promise<Composed> {
  switch (mail.kind) {
    case 'task_pdf_failed': {
      const task = await db(em)
        .selectFrom('tasks as t')
        .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
        .select(['t.project_id', 't.task_definition_id', 'd.abbreviation', 'd.name'])
        .where('t.id', '=', mail.taskId)
        .executeTakeFirst();
      if (!task) return skip(`task ${mail.taskId} no longer exists`);
      const r = await projectRecipient(em, task.project_id);
      const refused = gate(r, 'receive_task_notifications');
      if (refused || !r) return skip(refused!);
      const tutor = await person(em, await tutorFor(em, task.project_id, task.task_definition_id));
      return composed(settings, r, tutor, (signature) =>
        taskPdfFailedMail({ firstName: r.first_name, unitName: r.unit_name, tasks: [task], reason: mail.reason, signature }),
      );
    }
    case 'task_feedback_ready': {
      const r = await projectRecipient(em, mail.projectId);
      const refused = gate(r, 'receive_feedback_notifications');
      if (refused || !r) return skip(refused!);
      const { rows: tasks } = await sql<{ abbreviation: string; name: string; with_comments: boolean }>`
        select d.abbreviation, d.name,
               coalesce((select c.author_id = ${mail.markerId} from task_comments c
                          where c.task_id = t.id and c.kind = 'text' order by c.created_at desc, c.id desc limit 1), false) as with_comments
          from tasks t join task_definitions d on d.id = t.task_definition_id
         where t.id in (${sql.join(mail.taskIds)}) and t.project_id = ${mail.projectId}`.execute(db(em));
      if (tasks.length === 0) return skip('the marked tasks no longer exist');
      const marker = await person(em, mail.markerId);
      return composed(settings, r, marker, (signature) =>
        feedbackReadyMail({ firstName: r.first_name, unitName: r.unit_name, tasks: tasks.map((t) => ({ ...t, withComments: t.with_comments })), signature }),
      );
    }
    case 'portfolio_ready':
    case 'portfolio_failed': {
      const r = await projectRecipient(em, mail.projectId);
      const refused = gate(r, 'receive_portfolio_notifications');
      if (refused || !r) return skip(refused!);
      return composed(settings, r, convenorOf(r), (signature) =>
        portfolioMail({
          ok: mail.kind === 'portfolio_ready',
          firstName: r.first_name,
          unitName: r.unit_name,
          autoGenerated: r.portfolio_auto_generated,
          signature,
        }),
      );
    }
    case 'weekly_student_summary':
      return studentSummary(em, mail.projectId, mail.weekEnd, settings);
    case 'weekly_staff_summary':
      return staffSummary(em, mail.unitRoleId, mail.weekEnd, settings);
    case 'invitation':
      return invitation(em, mail.userId, settings);
    case 'discuss_timeout_warning':
    case 'discuss_timeout_expired':
      return discussTimeout(em, mail, settings);
  }
}

/** A discuss timeout's warning or expiry, to the student from their tutor; a warning is dropped once the task has left discuss. */
async function discussTimeout(
  em: Em,
  mail: Extract<MailPayload, { kind: 'discuss_timeout_warning' | 'discuss_timeout_expired' }>,
  settings: MailSettings,
): Promise<Composed> {
  const task = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .innerJoin('units as un', 'un.id', 'd.unit_id')
    .select([
      't.project_id',
      't.task_definition_id',
      't.status',
      'd.abbreviation',
      'd.name',
      'un.discuss_timeout_warning_days',
      'un.discuss_timeout_expire_days',
    ])
    .where('t.id', '=', mail.taskId)
    .executeTakeFirst();
  if (!task) return skip(`task ${mail.taskId} no longer exists`);
  if (mail.kind === 'discuss_timeout_warning' && task.status !== 'discuss') return skip(`task ${mail.taskId} is no longer in discuss`);
  const r = await projectRecipient(em, task.project_id);
  const refused = gate(r, 'receive_task_notifications');
  if (refused || !r) return skip(refused!);
  const tutor = await person(em, await tutorFor(em, task.project_id, task.task_definition_id));
  const common = { firstName: r.first_name, unitName: r.unit_name, task };
  return composed(settings, r, tutor, (signature) =>
    mail.kind === 'discuss_timeout_warning'
      ? discussWarningMail({ ...common, days: task.discuss_timeout_warning_days, expiresOn: mail.expiresOn, signature })
      : discussExpiredMail({ ...common, days: task.discuss_timeout_expire_days, signature }),
  );
}

/** The token is made here, when the mail is sent, so the job queue never holds it in clear. */
async function invitation(em: Em, userId: number, settings: MailSettings): Promise<Composed> {
  const u = await db(em)
    .selectFrom('users')
    .select(['id', 'username', 'first_name', 'last_name', 'email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!u) return skip(`user ${userId} no longer exists`);
  if (u.password_hash !== null) return skip(`user ${userId} has set a password already`);
  if (!u.email) return skip('the recipient has no e-mail address');
  const token = await createInvitation(em, u.id, new Date());
  const base = settings.webUrl ?? settings.serviceUrl ?? '';
  return {
    send: true,
    to: nameOf(u),
    replyTo: null,
    onBehalfOf: null,
    content: invitationMail({
      firstName: u.first_name,
      username: u.username,
      link: `${base}/invitations/${token}`,
      days: INVITATION_DAYS,
      product: settings.product,
    }),
  };
}

const summaryDates = (r: Recipient) => ({ active: r.active, sendNotifications: r.send_notifications, startDate: r.start_date, endDate: r.end_date });

async function studentSummary(em: Em, projectId: number, weekEnd: string, settings: MailSettings): Promise<Composed> {
  const r = await projectRecipient(em, projectId);
  const refused = gate(r, 'receive_feedback_notifications');
  if (refused || !r) return skip(refused!);
  if (!r.enrolled) return skip(`project ${projectId} is withdrawn`);
  if (!unitGetsSummaries(summaryDates(r), weekEnd)) return skip(`unit ${r.unit_id} is not running in the week to ${weekEnd}`);
  if (r.portfolio_done && !isMidUnit(summaryDates(r), weekEnd)) return skip(`project ${projectId} has its portfolio`);
  const { start, end } = weekBounds(weekEnd);
  const k = db(em);
  const [unit, mine, tasks, tutorial] = await Promise.all([
    unitWeek(em, r.unit_id, weekEnd),
    sql<{ sent: number; received: number; changes: number }>`
      select count(*) filter (where c.kind <> 'status' and c.author_id = ${r.user_id})::int as sent,
             count(*) filter (where c.kind <> 'status' and c.recipient_id = ${r.user_id})::int as received,
             count(*) filter (where c.kind = 'status')::int as changes
        from task_comments c join tasks t on t.id = c.task_id
       where t.project_id = ${projectId} and c.created_at >= ${start} and c.created_at < ${end}`.execute(k),
    sql<{
      abbreviation: string;
      name: string;
      target_grade: number;
      target_date: string;
      deadline: string;
      status: TaskStatus | null;
      extensions: number | null;
    }>`
      select d.abbreviation, d.name, d.target_grade, d.target_date::text as target_date,
             coalesce(d.due_date, un.end_date)::text as deadline, t.status, t.extensions
        from task_definitions d
        join units un on un.id = d.unit_id
        left join tasks t on t.task_definition_id = d.id and t.project_id = ${projectId}
       where d.unit_id = ${r.unit_id} and d.id is distinct from un.draft_task_definition_id`.execute(k),
    k.selectFrom('tutorial_enrolments').select('id').where('project_id', '=', projectId).executeTakeFirst(),
  ]);
  const planned: PlannedTask[] = tasks.rows.map((t) => ({
    abbreviation: t.abbreviation,
    name: t.name,
    targetGrade: t.target_grade,
    targetDate: t.target_date,
    deadline: t.deadline,
    status: t.status ?? 'not_started',
    extensions: t.extensions ?? 0,
  }));
  const statusCounts: Partial<Record<TaskStatus, number>> = {};
  for (const t of planned) if (t.targetGrade <= r.target_grade) statusCounts[t.status] = (statusCounts[t.status] ?? 0) + 1;
  const counts = mine.rows[0];
  return composed(settings, r, convenorOf(r), (signature) =>
    weeklyStudentSummaryMail({
      ...unit,
      unitName: r.unit_name,
      firstName: r.first_name,
      hasTutorial: tutorial !== undefined,
      portfolioDone: r.portfolio_done,
      top: topTasks(planned, r.target_grade, weekEnd),
      statusCounts,
      sentComments: counts.sent,
      receivedComments: counts.received,
      statusChanges: counts.changes,
      signature,
    }),
  );
}

async function staffSummary(em: Em, unitRoleId: number, weekEnd: string, settings: MailSettings): Promise<Composed> {
  const { rows } = await sql<Recipient & { role: string }>`
    select r.role, ${USER_COLUMNS}, ${UNIT_AND_CONVENOR}
      from unit_roles r
      join users u on u.id = r.user_id
      join units un on un.id = r.unit_id
      left join unit_roles cr on cr.id = un.main_convenor_id
      left join users cu on cu.id = cr.user_id
     where r.id = ${unitRoleId}`.execute(db(em));
  const r = rows[0];
  const refused = gate(r, 'receive_feedback_notifications');
  if (refused || !r) return skip(refused ?? 'its recipient no longer exists');
  if (!unitGetsSummaries(summaryDates(r), weekEnd)) return skip(`unit ${r.unit_id} is not running in the week to ${weekEnd}`);
  const convenor = r.role === ROLE.convenor;
  const [unit, figures] = await Promise.all([unitWeek(em, r.unit_id, weekEnd), staffFigures(em, r.unit_id, convenor ? null : unitRoleId, weekEnd)]);
  const mine: StaffFigures = figures.staff.find((f) => f.unitRoleId === unitRoleId) ?? { ...emptyFigures, name: nameOf(r).name };
  return composed(settings, r, convenorOf(r), (signature) =>
    weeklyStaffSummaryMail({
      ...unit,
      unitName: r.unit_name,
      firstName: r.first_name,
      mine,
      convenor: convenor ? { staff: figures.staff, studentsWithoutTutorial: figures.studentsWithoutTutorial } : undefined,
      signature,
    }),
  );
}

const emptyFigures: Omit<StaffFigures, 'name'> = {
  students: 0,
  assessmentsTotal: 0,
  assessmentsWeek: 0,
  commentsTotal: 0,
  commentsWeek: 0,
  receivedWeek: 0,
  studentStatusChanges: 0,
  awaitingFeedback: 0,
  oldestWaitingDays: 0,
};
