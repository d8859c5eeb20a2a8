// Page layout for the portfolio PDF (beyond-spec.md §8.1): A4 with 2 cm margins, DejaVu text so no
// character a student typed is lost, wrapped paragraphs, simple ruled tables and "Page N of M"
// footers on the pages we draw (embedded pages are counted but left untouched).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { rgb, type PDFDocument, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 56.69;
const TEXT_WIDTH = A4[0] - 2 * MARGIN;

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

const require = createRequire(import.meta.url);
const fontBytes = new Map<string, Promise<Buffer>>();
const fontFile = (name: string) => {
  let bytes = fontBytes.get(name);
  if (!bytes) {
    bytes = readFile(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));
    fontBytes.set(name, bytes);
  }
  return bytes;
};

/** The DejaVu faces, subset so a portfolio carries only the glyphs it uses. */
export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  doc.registerFontkit(fontkit);
  const [regular, bold, mono] = await Promise.all(['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansMono.ttf'].map(fontFile));
  return {
    regular: await doc.embedFont(regular, { subset: true }),
    bold: await doc.embedFont(bold, { subset: true }),
    mono: await doc.embedFont(mono, { subset: true }),
  };
}

/** Tabs to four columns; other control characters (which no font can draw) dropped. */
export function printable(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let out = '';
      for (const ch of line.replace(/\r$/, '')) {
        if (ch === '\t') out += ' '.repeat(4 - (out.length % 4));
        else if (ch >= ' ' && ch !== '\x7f') out += ch;
      }
      return out;
    })
    .join('\n');
}

/** Splits `text` into lines no wider than `width`, at spaces where it can and anywhere where it must. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of printable(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(?<= )/)) {
      if (font.widthOfTextAtSize(line + word, size) <= width) {
        line += word;
        continue;
      }
      if (line.trim() !== '') lines.push(line.trimEnd());
      line = '';
      for (const ch of word) {
        if (line !== '' && font.widthOfTextAtSize(line + ch, size) > width) {
          lines.push(line);
          line = '';
        }
        line += ch;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

export interface Cell {
  text: string;
  fill?: RGB;
}

const BLACK = rgb(0, 0, 0);
const GREY = rgb(0.4, 0.4, 0.4);

/**
 * Draws flowing content onto pages it adds as needed. Remembers which pages it drew, so footers go
 * on those only.
 */
export class PageWriter {
  page!: PDFPage;
  y = 0;
  readonly drawn = new Set<PDFPage>();

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {}

  /** A new body page, inserted at `at` (default: the end). */
  newPage(at?: number): PDFPage {
    this.page = at === undefined ? this.doc.addPage(A4) : this.doc.insertPage(at, A4);
    this.drawn.add(this.page);
    this.y = A4[1] - MARGIN;
    return this.page;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number): void {
    if (this.y - height < MARGIN + 20) this.newPage();
  }

  text(text: string, options: { size?: number; font?: PDFFont; color?: RGB; indent?: number; centred?: boolean; gap?: number } = {}): void {
    const size = options.size ?? 10;
    const font = options.font ?? this.fonts.regular;
    const indent = options.indent ?? 0;
    const width = TEXT_WIDTH - indent;
    for (const line of wrap(text, font, size, width)) {
      this.ensure(size * 1.3);
      this.y -= size * 1.3;
      const x = options.centred ? MARGIN + (TEXT_WIDTH - font.widthOfTextAtSize(line, size)) / 2 : MARGIN + indent;
      if (line !== '') this.page.drawText(line, { x, y: this.y, size, font, color: options.color ?? BLACK });
    }
    this.y -= options.gap ?? size * 0.4;
  }

  heading(text: string, size = 16): void {
    this.ensure(size * 3);
    this.y -= size * 0.6;
    this.text(text, { size, font: this.fonts.bold, gap: size * 0.6 });
  }

  rule(): void {
    this.ensure(12);
    this.y -= 6;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: 0.4, color: GREY });
    this.y -= 6;
  }

  /** A table with a bold header row; column widths are fractions of the text width; rows wrap their cells. */
  table(columns: { title: string; width: number }[], rows: Cell[][], size = 9): void {
    const widths = columns.map((c) => c.width * TEXT_WIDTH);
    const pad = 3;
    const drawRow = (cells: Cell[], font: PDFFont) => {
      const wrapped = cells.map((cell, i) => wrap(cell.text, font, size, widths[i] - 2 * pad));
      const height = Math.max(...wrapped.map((l) => l.length)) * size * 1.25 + 2 * pad;
      this.ensure(height);
      let x = MARGIN;
      cells.forEach((cell, i) => {
        this.page.drawRectangle({
          x,
          y: this.y - height,
          width: widths[i],
          height,
          borderWidth: 0.4,
          borderColor: GREY,
          ...(cell.fill ? { color: cell.fill } : {}),
        });
        wrapped[i].forEach((line, n) => {
          if (line !== '') this.page.drawText(line, { x: x + pad, y: this.y - pad - (n + 1) * size * 1.25 + size * 0.25, size, font });
        });
        x += widths[i];
      });
      this.y -= height;
    };
    drawRow(
      columns.map((c) => ({ text: c.title })),
      this.fonts.bold,
    );
    for (const row of rows) drawRow(row, this.fonts.regular);
    this.y -= 8;
  }

  /** "Page N of M" on every page this writer drew, M counting every page of the document. */
  footers(skip: ReadonlySet<PDFPage> = new Set()): void {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      if (!this.drawn.has(page) || skip.has(page)) return;
      const label = `Page ${i + 1} of ${pages.length}`;
      const size = 8;
      page.drawLine({ start: { x: MARGIN, y: MARGIN - 6 }, end: { x: A4[0] - MARGIN, y: MARGIN - 6 }, thickness: 0.4, color: GREY });
      page.drawText(label, { x: (A4[0] - this.fonts.regular.widthOfTextAtSize(label, size)) / 2, y: MARGIN - 20, size, font: this.fonts.regular, color: GREY });
    });
  }
}
