// The cover page of a task's PDF (beyond-spec.md §8.2 items 1-5 and 7): institution, unit,
// "<product> Submission", the task's name between rules, who submitted and when, the tutor, and
// for group work the members with their contribution points.
import { BLACK, GREY, type PdfWriter } from './writer.ts';
import { MARGIN, PAGE, TEXT_WIDTH, wrapWords } from './layout.ts';

export interface Person {
  firstName: string;
  lastName: string;
  username: string;
}

export interface CoverInfo {
  institution: string;
  product: string;
  unitCode: string;
  unitName: string;
  taskName: string;
  submitter: Person;
  submittedAt: Date;
  /** The tutor's name, or null for "No Tutor". */
  tutor: string | null;
  /** Group work: every member of the group submission with their contribution (0..5 points). */
  group?: { name: string; members: (Person & { points: number | null; pct: number | null })[] };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY/MM/DD HH:MM` in the server's time zone, as the original prints submission times. */
export const submissionTime = (d: Date): string =>
  `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
/** The long date form, e.g. "March 27, 2024". */
export const longDate = (d: Date): string => d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
/** First name and LAST NAME, as the original's small caps print them. */
export const displayName = (p: Person): string => `${p.firstName} ${p.lastName.toUpperCase()}`.trim();
/** One star per contribution point, out of five. */
export const contributionStars = (points: number | null): string => {
  const n = Math.max(0, Math.min(5, points ?? 0));
  return '★'.repeat(n) + '☆'.repeat(5 - n);
};

export function drawCover(writer: PdfWriter, info: CoverInfo): void {
  const page = writer.titlePage();
  let y = PAGE.height - MARGIN - 30;
  writer.centred(page, info.institution.toUpperCase(), y, 'sans', 18);
  y -= 30;
  writer.centred(page, `${info.unitCode} ${info.unitName}`.trim(), y, 'sans', 14);
  y -= 22;
  writer.centred(page, `${info.product} Submission`, y, 'sans', 12, GREY);
  y -= 24;
  writer.rule(page, y, 0.8);
  for (const line of wrapWords(info.taskName, TEXT_WIDTH, (s) => writer.measure(s, 'sansBold', 26))) {
    y -= 34;
    writer.centred(page, line, y, 'sansBold', 26);
  }
  y -= 18;
  writer.rule(page, y, 0.8);

  y -= 40;
  const right = PAGE.width / 2 + 20;
  writer.text(page, 'Submitted By:', MARGIN, y, 'sansBold', 11);
  writer.text(page, 'Tutor:', right, y, 'sansBold', 11);
  writer.text(page, displayName(info.submitter), MARGIN, y - 16, 'sans', 11);
  writer.text(page, info.submitter.username, MARGIN, y - 30, 'sans', 10, GREY);
  if (!info.group) writer.text(page, submissionTime(info.submittedAt), MARGIN, y - 44, 'sans', 10, GREY);
  writer.text(page, info.tutor ?? 'No Tutor', right, y - 16, 'sans', 11);
  y -= 76;

  if (info.group) {
    writer.text(page, `Group Members (${info.group.name}):`, MARGIN, y, 'sansBold', 11);
    y -= 18;
    for (const member of info.group.members) {
      writer.text(page, member.username, MARGIN, y, 'sans', 10);
      writer.text(page, displayName(member), MARGIN + 130, y, 'sans', 10);
      writer.text(page, contributionStars(member.points), MARGIN + 330, y, 'sans', 10);
      if (member.pct !== null) writer.text(page, `${member.pct}%`, MARGIN + 420, y, 'sans', 10, GREY);
      y -= 15;
    }
  }
  writer.centred(page, longDate(info.submittedAt), Math.min(y - 30, MARGIN + 60), 'sans', 11, BLACK);
}
