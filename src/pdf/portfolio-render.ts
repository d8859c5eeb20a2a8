// The portfolio PDF (beyond-spec.md §8.3), with pdf-lib: the learning summary report, a cover, the
// contents, the task status table, the learning outcomes with the student's self-assessed ratings,
// the extra parts, then every portfolio task's section and its submission PDF. Pure apart from
// reading stored files through `read`.
import { extname } from 'node:path';
import { PDFDocument, rgb, type PDFImage, type PDFPage, type RGB } from 'pdf-lib';
import type { TaskStatus } from '../../schema/enums.ts';
import { STATUS_NAMES } from '../domain/task-status.ts';
import { CODE_SIZE, codeRows, colourOf, cutToRows, languageFor } from './code.ts';
import { SubmissionFileError } from './errors.ts';
import { embedImage, fitInto } from './images.ts';
import { appendPdf } from './merge.ts';
import { A4, embedFonts, MARGIN, PageWriter, printable, type Cell } from './portfolio-layout.ts';
import { portfolioTasks, type PortfolioInputs, type PortfolioTask } from './portfolio-inputs.ts';

/** A part or task PDF that cannot be read: the compile fails cleanly rather than being retried. */
export class PortfolioPartError extends Error {}

export interface RenderOptions {
  /** Reads a stored file; null when it is missing. */
  read: (key: string) => Promise<Buffer | null>;
  now: Date;
  institutionName: string;
  productName: string;
  /** Pages a code part may fill (PDF_MAX_PAGES_PER_FILE); the rest is left out with a note. */
  maxPagesPerFile?: number;
}

const STATUS_COLOURS: Record<TaskStatus, RGB> = {
  complete: rgb(0.357, 0.718, 0.357),
  ready_for_feedback: rgb(0, 0.47, 0.84),
  not_started: rgb(0.8, 0.8, 0.8),
  working_on_it: rgb(0.922, 0.561, 0.024),
  need_help: rgb(0.643, 0.561, 0.808),
  fix_and_resubmit: rgb(0.949, 0.847, 0.361),
  feedback_exceeded: rgb(0.831, 0.42, 0.329),
  redo: rgb(0.502, 0.251, 0),
  discuss: rgb(0.192, 0.69, 0.835),
  demonstrate: rgb(0.259, 0.545, 0.792),
  fail: rgb(0.851, 0.216, 0.075),
  time_exceeded: rgb(0.851, 0.216, 0.075),
};

const lozenges = (rating: number) => '●'.repeat(Math.max(0, Math.min(5, rating))) + '○'.repeat(5 - Math.max(0, Math.min(5, rating)));
const longDate = (d: Date) => d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const stamp = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ').replace(/-/g, '/');

export async function renderPortfolio(inputs: PortfolioInputs, options: RenderOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${inputs.unit.code} portfolio of ${inputs.student.username}`);
  doc.setCreationDate(options.now);
  doc.setModificationDate(options.now);
  const fonts = await embedFonts(doc);
  const w = new PageWriter(doc, fonts);
  const toc: { title: string; level: number; page: PDFPage }[] = [];
  const titlePages = new Set<PDFPage>();

  const fetch = async (key: string, what: string): Promise<Buffer> => {
    const bytes = await options.read(key);
    if (!bytes) throw new PortfolioPartError(`${what} is missing`);
    return bytes;
  };
  const embedPdf = async (bytes: Buffer, what: string): Promise<PDFPage[]> => {
    const before = doc.getPageCount();
    try {
      await appendPdf(doc, bytes);
    } catch (error) {
      if (error instanceof SubmissionFileError) throw new PortfolioPartError(`${what} ${error.message}`);
      throw new PortfolioPartError(`${what} is not a readable PDF (${(error as Error).message})`);
    }
    return doc.getPages().slice(before);
  };

  const summary = inputs.parts.find((p) => p.idx === 0 && p.kind === 'document');
  const extras = inputs.parts.filter((p) => p !== summary);
  // As the original, a task whose PDF is gone is left out rather than failing the portfolio.
  const tasks: { task: PortfolioTask; pdf: Buffer }[] = [];
  for (const task of portfolioTasks(inputs.definitions)) {
    const pdf = await options.read(task.pdfKey as string);
    if (pdf) tasks.push({ task, pdf });
  }

  // 1. The learning summary report comes first.
  if (summary) {
    const pages = await embedPdf(await fetch(summary.key, 'The learning summary report'), 'The learning summary report');
    if (pages[0]) toc.push({ title: 'Learning Summary Report', level: 0, page: pages[0] });
  }

  // 2. Cover.
  const cover = w.newPage();
  titlePages.add(cover);
  w.y -= 80;
  const name = `${inputs.student.firstName} ${inputs.student.lastName.toUpperCase()}`;
  w.text(options.institutionName, { size: 22, centred: true, gap: 16 });
  w.text(inputs.unit.name, { size: 16, centred: true });
  w.text(name, { size: 14, centred: true, gap: 20 });
  w.rule();
  w.text('Portfolio Submission', { size: 30, font: fonts.bold, centred: true, gap: 8 });
  w.rule();
  w.y -= 20;
  w.text('Submitted By:', { font: fonts.bold, size: 12 });
  w.text(`${name} (${inputs.student.username})`, { size: 12, gap: 12 });
  w.text('Tutor:', { font: fonts.bold, size: 12 });
  w.text(inputs.convenor ?? 'No Tutor', { size: 12, gap: 30 });
  w.text(longDate(options.now), { size: 12, centred: true });
  const produced = `Produced by ${options.productName}`;
  cover.drawText(produced, { x: (A4[0] - fonts.regular.widthOfTextAtSize(produced, 8)) / 2, y: MARGIN - 20, size: 8, font: fonts.regular });

  // 3. Contents: as many pages as its entries need, filled in once every page exists.
  const entries = 1 + 1 + 1 + inputs.outcomes.length + (extras.length > 0 ? 1 + extras.length : 0) + tasks.length;
  const tocPages = Array.from({ length: Math.max(1, Math.ceil(entries / 45)) }, () => w.newPage());

  // 4. Overall task status.
  w.newPage();
  toc.push({ title: 'Overall Task Status', level: 0, page: w.page });
  w.heading('Overall Task Status');
  w.table(
    [
      { title: 'Task', width: 0.55 },
      { title: 'Status', width: 0.27 },
      { title: 'Times Assessed', width: 0.18 },
    ],
    inputs.definitions.map((d): Cell[] => [
      { text: `${d.abbreviation} ${d.name}` },
      { text: STATUS_NAMES[d.status], fill: STATUS_COLOURS[d.status] },
      { text: d.taskId === null ? '' : String(d.timesAssessed ?? 0) },
    ]),
  );

  // 5. Learning outcomes with the student's ratings.
  w.newPage();
  toc.push({ title: 'Learning Outcomes', level: 0, page: w.page });
  w.heading('Learning Outcomes');
  const byTask = new Map(inputs.definitions.filter((d) => d.taskId !== null).map((d) => [d.taskId as number, d]));
  for (const outcome of inputs.outcomes) {
    w.heading(`ILO ${outcome.iloNumber}: ${outcome.name}`, 12);
    toc.push({ title: outcome.name, level: 1, page: w.page });
    if (outcome.description) w.text(outcome.description, { gap: 6 });
    const links = inputs.alignments.filter((a) => a.outcomeId === outcome.id && byTask.has(a.taskId));
    if (links.length === 0) {
      w.text('No tasks aligned with this outcome.', { color: rgb(0.4, 0.4, 0.4), gap: 10 });
      continue;
    }
    w.table(
      [
        { title: 'Task', width: 0.42 },
        { title: 'Rating', width: 0.18 },
        { title: 'Status', width: 0.25 },
        { title: 'Times Assessed', width: 0.15 },
      ],
      links.map((a): Cell[] => {
        const d = byTask.get(a.taskId)!;
        return [
          { text: `${d.abbreviation} ${d.name}` },
          { text: lozenges(a.rating) },
          { text: STATUS_NAMES[d.status], fill: STATUS_COLOURS[d.status] },
          { text: String(d.timesAssessed ?? 0) },
        ];
      }),
    );
  }

  // 6. Additional files.
  if (extras.length > 0) {
    w.newPage();
    toc.push({ title: 'Additional Files', level: 0, page: w.page });
    w.heading('Additional Files');
    for (const [i, part] of extras.entries()) w.text(`${i + 1}. ${part.name}`);
    for (const [i, part] of extras.entries()) {
      const what = `The portfolio file "${part.name}"`;
      const bytes = await fetch(part.key, what);
      if (part.kind === 'document') {
        const pages = await embedPdf(bytes, what);
        if (pages[0]) toc.push({ title: part.name, level: 1, page: pages[0] });
        continue;
      }
      w.newPage();
      toc.push({ title: part.name, level: 1, page: w.page });
      w.text(`File ${i + 1} of ${extras.length}: ${part.name}`, { size: 9, color: rgb(0.4, 0.4, 0.4) });
      w.rule();
      if (part.kind === 'image') await drawImage(w, bytes, what);
      else drawCode(w, bytes.toString('utf8'), extname(part.name), options.maxPagesPerFile);
    }
  }

  // 7. Each portfolio task: its section, then its submission.
  for (const { task, pdf } of tasks) {
    w.newPage();
    toc.push({ title: task.name, level: 0, page: w.page });
    w.heading(task.name);
    if (task.description) w.text(task.description, { gap: 10 });
    for (const link of inputs.alignments.filter((a) => a.taskId === task.taskId)) {
      const outcome = inputs.outcomes.find((o) => o.id === link.outcomeId);
      w.table(
        [
          { title: 'Outcome', width: 0.7 },
          { title: 'Weight', width: 0.3 },
        ],
        [[{ text: outcome?.name ?? '' }, { text: lozenges(link.rating) }]],
      );
      if (link.description) w.text(link.description, { gap: 8 });
    }
    const comments = inputs.comments.get(task.taskId as number) ?? [];
    if (comments.length > 0) {
      w.table(
        [
          { title: 'Date', width: 0.2 },
          { title: 'Author', width: 0.22 },
          { title: 'Comment', width: 0.58 },
        ],
        comments.map((c) => [{ text: stamp(c.at) }, { text: c.author }, { text: c.text }]),
      );
    }
    await embedPdf(pdf, `The submission of ${task.abbreviation}`);
  }

  // The contents, now that every page is in place.
  const pages = doc.getPages();
  w.page = tocPages[0];
  w.y = A4[1] - MARGIN;
  w.heading('Contents');
  let tocIndex = 0;
  for (const entry of toc) {
    if (w.y < MARGIN + 40 && tocIndex < tocPages.length - 1) {
      w.page = tocPages[++tocIndex];
      w.y = A4[1] - MARGIN;
    }
    const number = String(pages.indexOf(entry.page) + 1);
    const size = entry.level === 0 ? 11 : 10;
    const font = entry.level === 0 ? fonts.bold : fonts.regular;
    const x = MARGIN + entry.level * 16;
    w.y -= size * 1.5;
    const room = A4[0] - 2 * MARGIN - entry.level * 16 - 40;
    let title = printable(entry.title).replace(/\n/g, ' ');
    while (title.length > 1 && font.widthOfTextAtSize(title, size) > room) title = `${title.slice(0, -2)}…`;
    w.page.drawText(title, { x, y: w.y, size, font });
    w.page.drawText(number, { x: A4[0] - MARGIN - font.widthOfTextAtSize(number, size), y: w.y, size, font });
  }
  w.footers(titlePages);
  return doc.save();
}

/** The image scaled into the rest of the page (never enlarged); other kinds than PNG and JPEG become PNG first, as for submissions. */
async function drawImage(w: PageWriter, bytes: Buffer, what: string): Promise<void> {
  let image: PDFImage;
  try {
    image = await embedImage(w.doc, bytes);
  } catch (error) {
    throw new PortfolioPartError(`${what} is not a readable image (${(error as Error).message})`);
  }
  const maxWidth = A4[0] - 2 * MARGIN;
  const size = fitInto(image.width, image.height, maxWidth, w.y - MARGIN - 20);
  w.page.drawImage(image, { x: MARGIN + (maxWidth - size.width) / 2, y: w.y - size.height, ...size });
  w.y -= size.height;
}

/**
 * Code with line numbers, coloured by extension, long lines wrapped, tabs expanded (the submission
 * PDF's rules, src/pdf/code.ts), up to `maxPages` pages, then a note.
 */
function drawCode(w: PageWriter, source: string, extension: string, maxPages = Infinity): void {
  const size = CODE_SIZE;
  const font = w.fonts.mono;
  const gutter = font.widthOfTextAtSize('00000 ', size);
  const columns = Math.max(10, Math.floor((A4[0] - 2 * MARGIN - gutter) / font.widthOfTextAtSize('M', size)));
  const cut = cutToRows(source, columns, maxPages * Math.floor((A4[1] - 2 * MARGIN) / (size * 1.3)));
  for (const row of codeRows(cut.text, languageFor(extension), columns)) {
    w.ensure(size * 1.3);
    w.y -= size * 1.3;
    if (row.number !== null) {
      const label = `${row.number} `;
      w.page.drawText(label, { x: MARGIN + gutter - font.widthOfTextAtSize(label, size), y: w.y, size, font, color: rgb(0.45, 0.45, 0.45) });
    }
    let x = MARGIN + gutter;
    for (const token of row.tokens) {
      const text = printable(token.text);
      if (text === '') continue;
      w.page.drawText(text, { x, y: w.y, size, font, color: rgb(...colourOf(token.scope)) });
      x += font.widthOfTextAtSize(text, size);
    }
  }
  if (!cut.whole)
    w.text(
      `Cut short here: this portfolio shows the first ${maxPages} pages of each file (${cut.lines} lines). ` +
        `The whole file is among the student's portfolio files.`,
      { font: w.fonts.bold, size: 9, gap: 6 },
    );
}
