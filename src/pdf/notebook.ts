// Jupyter notebooks (beyond-spec.md §8.2): every cell in order; code cells boxed under "Cell NN"
// with their source, a divider and their outputs (text, PNG images, tracebacks without ANSI
// colour codes); markdown as formatted text; raw cells verbatim. `notebookCells` is pure.
import { BLACK, GREY, type PdfWriter } from './writer.ts';
import { codeColumns, codeRows, codeRowsFitting, cutToRows, drawCode } from './code.ts';
import { MARGIN, TEXT_WIDTH, wrapWords } from './layout.ts';
import { SubmissionFileError } from './errors.ts';
import { checkImagePixels } from './images.ts';
import { type PDFImage, rgb } from 'pdf-lib';

export type Output = { kind: 'text'; text: string } | { kind: 'png'; data: Buffer };
export type Cell = { kind: 'markdown'; source: string } | { kind: 'raw'; source: string } | { kind: 'code'; number: number; source: string; outputs: Output[] };

const joined = (value: unknown): string => (Array.isArray(value) ? value.join('') : typeof value === 'string' ? value : '');
/** An output of a code cell as nbformat writes it: the fields read below, not checked further. */
interface NotebookOutput {
  output_type?: unknown;
  text?: unknown;
  traceback?: string[];
  ename?: unknown;
  evalue?: unknown;
  data?: Record<string, unknown>;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes begin with ESC
export const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

/** The cells of a notebook's JSON text; throws SubmissionFileError when it is not a notebook. */
export function notebookCells(json: string): { language: string; cells: Cell[] } {
  let nb: { cells?: unknown; metadata?: { language_info?: { name?: string }; kernelspec?: { language?: string } } };
  try {
    nb = JSON.parse(json);
  } catch {
    throw new SubmissionFileError('is not a valid Jupyter notebook (not JSON)');
  }
  if (!nb || !Array.isArray(nb.cells)) throw new SubmissionFileError('is not a valid Jupyter notebook (no cells)');
  const language = nb.metadata?.language_info?.name ?? nb.metadata?.kernelspec?.language ?? 'python';
  let count = 0;
  const cells = (nb.cells as Record<string, unknown>[]).map((cell): Cell => {
    const source = joined(cell.source);
    if (cell.cell_type === 'markdown') return { kind: 'markdown', source };
    if (cell.cell_type !== 'code') return { kind: 'raw', source };
    count++;
    const outputs: Output[] = [];
    for (const out of (Array.isArray(cell.outputs) ? cell.outputs : []) as NotebookOutput[]) {
      if (out.output_type === 'stream') outputs.push({ kind: 'text', text: joined(out.text) });
      else if (out.output_type === 'error') outputs.push({ kind: 'text', text: stripAnsi((out.traceback ?? [`${out.ename}: ${out.evalue}`]).join('\n')) });
      else if (out.data) {
        const png = out.data['image/png'];
        if (typeof png === 'string' || Array.isArray(png)) outputs.push({ kind: 'png', data: Buffer.from(joined(png).replace(/\s/g, ''), 'base64') });
        else if (out.data['text/plain'] !== undefined) outputs.push({ kind: 'text', text: joined(out.data['text/plain']) });
        else if (out.data['text/latex'] !== undefined) outputs.push({ kind: 'text', text: joined(out.data['text/latex']) });
      }
    }
    return { kind: 'code', number: typeof cell.execution_count === 'number' ? cell.execution_count : count, source, outputs };
  });
  return { language, cells };
}

/** A markdown line's style: headings by their level, list items and plain paragraphs. */
export function markdownLine(line: string): { text: string; size: number; bold: boolean; indent: number } {
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading) return { text: heading[2].replace(/[*_`]/g, ''), size: [16, 14, 12, 11, 10, 10][heading[1].length - 1], bold: true, indent: 0 };
  const item = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  const text = (item ? `• ${item[2]}` : line).replace(/\*\*|__|`/g, '');
  return { text, size: 10, bold: false, indent: item ? 12 + item[1].length * 4 : 0 };
}

/** How far a notebook was drawn: the cells begun (the last one perhaps cut short), of all its cells. */
export interface NotebookProgress {
  cells: number;
  total: number;
}

/**
 * Draws the notebook's cells from the writer's cursor on, counting the cells begun in `shown`.
 * With a page limit (writer.pagesLeft) each text is first cut to the rows still left, so a huge
 * cell costs only what fits; the limit then stops the drawing (PageLimitReached).
 */
export async function drawNotebook(writer: PdfWriter, json: string, shown: NotebookProgress = { cells: 0, total: 0 }): Promise<void> {
  const { language, cells } = notebookCells(json);
  shown.total = cells.length;
  const columns = codeColumns(writer, 8);
  const fitting = (source: string) => cutToRows(source, columns, codeRowsFitting(writer, writer.pagesLeft ?? Infinity)).text;
  for (const cell of cells) {
    shown.cells++;
    if (cell.kind === 'markdown') {
      for (const raw of fitting(cell.source).split('\n')) {
        const line = markdownLine(raw);
        const face = line.bold ? 'sansBold' : 'sans';
        for (const text of wrapWords(line.text, TEXT_WIDTH - line.indent, (s) => writer.measure(s, face, line.size))) {
          const page = writer.ensure(line.size * 1.4);
          writer.y -= line.size * 1.4;
          writer.text(page, text, MARGIN + line.indent, writer.y, face, line.size);
        }
      }
      writer.y -= 6;
      continue;
    }
    if (cell.kind === 'raw') {
      drawCode(writer, codeRows(fitting(cell.source), null, columns));
      writer.y -= 6;
      continue;
    }
    const title = writer.ensure(30);
    writer.y -= 14;
    writer.text(title, `Cell ${String(cell.number).padStart(2, '0')}`, MARGIN, writer.y, 'sansBold', 9, GREY);
    writer.y -= 4;
    writer.rule(title, writer.y, 0.6);
    drawCode(writer, codeRows(fitting(cell.source), language, columns));
    if (cell.outputs.length > 0) {
      const page = writer.ensure(8);
      writer.y -= 4;
      page.drawLine({
        start: { x: MARGIN, y: writer.y },
        end: { x: MARGIN + TEXT_WIDTH, y: writer.y },
        thickness: 0.3,
        color: rgb(0.6, 0.6, 0.6),
        dashArray: [2, 2],
      });
    }
    for (const output of cell.outputs) {
      if (output.kind === 'text')
        drawCode(
          writer,
          codeRows(fitting(output.text), null, columns).map((row) => ({ ...row, number: null })),
        );
      else await drawOutputImage(writer, output.data);
    }
    const end = writer.ensure(6);
    writer.y -= 4;
    writer.rule(end, writer.y, 0.6);
    writer.y -= 8;
  }
}

async function drawOutputImage(writer: PdfWriter, png: Buffer): Promise<void> {
  let image: PDFImage;
  try {
    checkImagePixels(png);
    image = await writer.doc.embedPng(png);
  } catch (error) {
    const page = writer.ensure(12);
    writer.y -= 12;
    const note = error instanceof SubmissionFileError ? '[image output too large to show]' : '[image output that could not be read]';
    writer.text(page, note, MARGIN, writer.y, 'sans', 9, BLACK);
    return;
  }
  const scale = Math.min(1, TEXT_WIDTH / image.width, 400 / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  const page = writer.ensure(h + 6);
  writer.y -= h + 6;
  page.drawImage(image, { x: MARGIN, y: writer.y, width: w, height: h });
}
