// The words of every notification e-mail, as pure functions of plain data (tested without I/O).
// The sending job (workers/tasks/send-email.ts) reads the data; nothing here touches a database.
import { addDays } from '../domain/dates.ts';
import { STATUS_NAMES } from '../domain/task-status.ts';
import type { TaskStatus } from '../../schema/enums.ts';
import type { TopTask } from '../domain/weekly-summaries.ts';

export interface MailContent {
  subject: string;
  text: string;
}

/** What every mail ends with: who it speaks for, and where to turn these mails off. */
export interface Signature {
  /** The product's name (EXTERNAL_NAME). */
  product: string;
  /** The tutor or convenor the mail is sent on behalf of; null when the unit has none. */
  onBehalfOf: string | null;
  /** The web client's address (WEB_CLIENT_URL), for the notification-settings link. */
  webUrl: string | null;
}

export interface TaskLine {
  abbreviation: string;
  name: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const wasWere = (n: number) => (n === 1 ? 'was' : 'were');

function footer(s: Signature): string {
  const team = s.onBehalfOf ? `The ${s.product} team, on behalf of ${s.onBehalfOf}` : `The ${s.product} team`;
  const settings = s.webUrl
    ? `To stop receiving these e-mails, change your notification settings at ${s.webUrl}/#/home?notifications`
    : `To stop receiving these e-mails, turn them off in your profile's notification settings in ${s.product}.`;
  return ['', 'Regards,', team, '', '---', settings, '', `Sent by ${s.product}`].join('\n');
}

const taskList = (tasks: (TaskLine & { note?: string })[]) =>
  [...tasks].sort((a, b) => a.abbreviation.localeCompare(b.abbreviation)).map((t) => `  * ${t.abbreviation} - ${t.name}${t.note ? ` (${t.note})` : ''}`);

/** A submission could not be turned into a PDF, so the task was sent back to the student. */
export function taskPdfFailedMail(d: { firstName: string; unitName: string; tasks: TaskLine[]; reason?: string; signature: Signature }): MailContent {
  const lines = [
    `Hi ${d.firstName},`,
    '',
    `We could not process what you submitted for the following ${d.tasks.length === 1 ? 'task' : 'tasks'} in ${d.unitName}, ` +
      `so ${d.tasks.length === 1 ? 'it has' : 'they have'} been marked Fix and Resubmit:`,
    '',
    ...taskList(d.tasks),
    '',
    ...(d.reason ? [`What went wrong: ${d.reason}`, ''] : []),
    'Please check the files you uploaded (a PDF that is damaged or password protected, an image that does not open, ' +
      'text in an unusual encoding) and upload the task again.',
    footer(d.signature),
  ];
  return { subject: `${d.unitName}: Task PDFs ready to view`, text: lines.join('\n') };
}

/** A task has waited in Discuss for the unit's warning days (the discuss-timeout job). */
export function discussWarningMail(d: {
  firstName: string;
  unitName: string;
  task: TaskLine;
  days: number;
  expiresOn: string;
  signature: Signature;
}): MailContent {
  const lines = [
    `Hi ${d.firstName},`,
    '',
    `Your task ${d.task.abbreviation} - ${d.task.name} in ${d.unitName} has been waiting in Discuss for ${plural(d.days, 'teaching day')}.`,
    '',
    `Please talk it over with your tutor soon. If it is still in Discuss on ${longDay(d.expiresOn)}, it will go back to Fix and Resubmit ` +
      'and you will need to submit it again.',
    footer(d.signature),
  ];
  return { subject: `${d.unitName}: ${d.task.abbreviation} is waiting to be discussed`, text: lines.join('\n') };
}

/** A task stayed in Discuss for the unit's expiry days and went back to Fix and Resubmit. */
export function discussExpiredMail(d: { firstName: string; unitName: string; task: TaskLine; days: number; signature: Signature }): MailContent {
  const lines = [
    `Hi ${d.firstName},`,
    '',
    `Your task ${d.task.abbreviation} - ${d.task.name} in ${d.unitName} stayed in Discuss for ${plural(d.days, 'teaching day')} ` +
      'without being discussed, so it has gone back to Fix and Resubmit.',
    '',
    'Look over your work, submit it again, and then discuss it with your tutor.',
    footer(d.signature),
  ];
  return { subject: `${d.unitName}: ${d.task.abbreviation} moved to Fix and Resubmit`, text: lines.join('\n') };
}

/** Batch marking gave these tasks new statuses, grades or comments. */
export function feedbackReadyMail(d: {
  firstName: string;
  unitName: string;
  tasks: (TaskLine & { withComments: boolean })[];
  signature: Signature;
}): MailContent {
  const commented = d.tasks.some((t) => t.withComments);
  const lines = [
    `Hi ${d.firstName},`,
    '',
    `Your work in ${d.unitName} has been checked. Sign in to see the feedback${commented ? ' and comments' : ''} on:`,
    '',
    ...taskList(d.tasks.map((t) => ({ ...t, note: t.withComments ? 'with comments' : undefined }))),
    footer(d.signature),
  ];
  return { subject: `${d.unitName}: Feedback ready to review`, text: lines.join('\n') };
}

/** The portfolio compile finished (`ok`) or failed. */
export function portfolioMail(d: { ok: boolean; firstName: string; unitName: string; autoGenerated: boolean; signature: Signature }): MailContent {
  const auto = d.autoGenerated
    ? ['Your portfolio was compiled automatically. You can still change it and compile it again until the date your teaching staff have set.', '']
    : [];
  const body = d.ok
    ? `Your portfolio for ${d.unitName} has been compiled. You can now view and download it in ${d.signature.product}.`
    : `Your portfolio for ${d.unitName} could not be compiled. This usually means one of your task PDFs is damaged. Sign in to ${d.signature.product}, ` +
      `check each task's PDF, and then ask for the portfolio to be compiled again.`;
  const lines = [`Hi ${d.firstName},`, '', ...auto, body, footer(d.signature)];
  return { subject: `${d.unitName}: ${d.ok ? 'Portfolio ready to review' : 'Portfolio failed to compile'}`, text: lines.join('\n') };
}

/** "2 March 2026" for a YYYY-MM-DD day. */
export function longDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The week before `weekEnd` (exclusive), as people read it. */
const weekLine = (weekEnd: string) => `${longDay(addDays(weekEnd, -7))} to ${longDay(addDays(weekEnd, -1))}`;

export interface UnitWeek {
  unitName: string;
  /** Exclusive end of the summarised week, YYYY-MM-DD. */
  weekEnd: string;
  /** Comments and status changes on every task of the unit during the week. */
  unitComments: number;
  unitStatusChanges: number;
}

export interface StudentWeek extends UnitWeek {
  firstName: string;
  hasTutorial: boolean;
  portfolioDone: boolean;
  top: TopTask[];
  /** The student's tasks by status, for the progress line. */
  statusCounts: Partial<Record<TaskStatus, number>>;
  sentComments: number;
  receivedComments: number;
  statusChanges: number;
  signature: Signature;
}

function topSection(d: StudentWeek): string[] {
  if (d.top.length === 0) {
    return [
      d.portfolioDone
        ? 'You have finished every task and your portfolio is ready. Well done!'
        : 'You have finished every task. Now sign in and prepare your portfolio.',
    ];
  }
  const out: string[] = [];
  const group = (reason: TopTask['reason'], heading: string) => {
    const tasks = d.top.filter((t) => t.reason === reason);
    if (tasks.length === 0) return;
    out.push(heading, ...tasks.map((t) => `  * ${t.abbreviation} - ${t.name}${t.status === 'discuss' ? ' (discuss it with your tutor)' : ''}`), '');
  };
  group('overdue', 'Overdue - catch up on these first:');
  group('soon', 'Due within the next week:');
  group('ahead', 'Get ahead with these next:');
  out.pop();
  return out;
}

export function weeklyStudentSummaryMail(d: StudentWeek): MailContent {
  const progress = (Object.entries(d.statusCounts) as [TaskStatus, number][])
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${STATUS_NAMES[status]}: ${n}`)
    .join(', ');
  const lines = [
    `Hi ${d.firstName},`,
    '',
    `${d.unitName} - weekly summary for ${weekLine(d.weekEnd)}`,
    '',
    ...(d.hasTutorial ? [] : ['You are not in a tutorial yet, so no tutor sees your work. Sign in and choose your tutorial.', '']),
    'What to focus on now:',
    '',
    ...topSection(d),
    '',
    ...(progress ? [`Your tasks: ${progress}.`, ''] : []),
    'This week:',
    `  * ${plural(d.unitComments, 'comment')} ${wasWere(d.unitComments)} made in the unit.`,
    `  * You posted ${plural(d.sentComments, 'comment')} and received ${plural(d.receivedComments, 'comment')}.`,
    `  * Tasks changed status ${plural(d.unitStatusChanges, 'time')} in the unit; yours changed ${plural(d.statusChanges, 'time')}.`,
    footer(d.signature),
  ];
  return { subject: `${d.unitName}: Weekly Summary`, text: lines.join('\n') };
}

export interface StaffFigures {
  name: string;
  students: number;
  /** Assessments (complete, redo, discuss, ...) this staff member gave, in all and this week. */
  assessmentsTotal: number;
  assessmentsWeek: number;
  commentsTotal: number;
  commentsWeek: number;
  receivedWeek: number;
  /** Status changes of their students' tasks this week. */
  studentStatusChanges: number;
  awaitingFeedback: number;
  /** Days since the oldest waiting task was submitted (0 when none waits). */
  oldestWaitingDays: number;
}

export interface StaffWeek extends UnitWeek {
  firstName: string;
  mine: StaffFigures;
  /** For convenors: every teaching staff member's figures, and students in no tutorial. */
  convenor?: { staff: StaffFigures[]; studentsWithoutTutorial: number };
  signature: Signature;
}

const cell = (value: string | number, width: number) => (typeof value === 'number' ? String(value).padStart(width) : value.slice(0, width).padEnd(width));

export function weeklyStaffSummaryMail(d: StaffWeek): MailContent {
  const m = d.mine;
  const lines = [
    `Hi ${d.firstName},`,
    '',
    `${d.unitName} - weekly summary for ${weekLine(d.weekEnd)}`,
    '',
    `  * ${plural(d.unitComments, 'comment')} ${wasWere(d.unitComments)} made in the unit, and tasks changed status ${plural(d.unitStatusChanges, 'time')}.`,
  ];
  if (m.students > 0) {
    lines.push(
      `  * You posted ${plural(m.commentsWeek, 'comment')} and received ${plural(m.receivedWeek, 'comment')}.`,
      `  * Your students' tasks changed status ${plural(m.studentStatusChanges, 'time')}, and you assessed ${plural(m.assessmentsWeek, 'task')}.`,
      `  * ${plural(m.awaitingFeedback, 'task')} ${m.awaitingFeedback === 1 ? 'is' : 'are'} waiting for your feedback` +
        `${m.awaitingFeedback > 0 ? `; the oldest was submitted ${plural(m.oldestWaitingDays, 'day')} ago` : ''}.`,
    );
  }
  if (d.convenor) {
    const rows = d.convenor.staff.filter((s) => s.students > 0);
    const rule = '-'.repeat(94);
    lines.push(
      '',
      'Teaching staff this week:',
      rule,
      `${cell('Name', 20)} | Students | Assessed (all/week) | Comments (all/week) | Waiting | Oldest`,
      rule,
      ...rows.map(
        (s) =>
          `${cell(s.name, 20)} | ${cell(s.students, 8)} | ${cell(s.assessmentsTotal, 8)} / ${cell(s.assessmentsWeek, 8)} | ${cell(s.commentsTotal, 8)} / ` +
          `${cell(s.commentsWeek, 8)} | ${cell(s.awaitingFeedback, 7)} | ${cell(s.oldestWaitingDays, 6)}`,
      ),
      rule,
    );
    const n = d.convenor.studentsWithoutTutorial;
    if (n > 0) lines.push('', `${plural(n, 'student')} ${n === 1 ? 'is' : 'are'} in no tutorial: their work appears in no tutor's inbox.`);
  }
  lines.push(footer(d.signature));
  return { subject: `${d.unitName}: Weekly Summary`, text: lines.join('\n') };
}

/** A user created without a password (the users CSV): a one-time link to set one. */
export function invitationMail(d: { firstName: string; username: string; link: string; days: number; product: string }): MailContent {
  const lines = [
    `Hi ${d.firstName},`,
    '',
    `An account with the username ${d.username} has been created for you in ${d.product}.`,
    `To choose your password, open this link within ${d.days} days (it works once):`,
    '',
    `  ${d.link}`,
    '',
    'If you did not expect this e-mail, you can ignore it.',
    '',
    'Regards,',
    `The ${d.product} team`,
  ];
  return { subject: `${d.product}: set your password`, text: lines.join('\n') };
}
