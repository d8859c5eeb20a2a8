// Writes body pages top to bottom, starting new ones as they fill, and decorates them at the end
// (header "File i of n" and the requirement's name, footer "Page N of M"; beyond-spec.md §8.1),
// when the total page count, embedded pages included, is known.
import {
  beginText,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingRgbColor,
  setFontAndSize,
  showText,
  type PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import { faceChain, splitByCoverage, type FaceName, type PdfFonts } from './fonts.ts';
import { BOTTOM, MARGIN, PAGE, TOP, printable } from './layout.ts';

export const BLACK = rgb(0, 0, 0);
export const GREY = rgb(0.45, 0.45, 0.45);

export interface Header {
  left: string;
  right: string;
}

export class PdfWriter {
  private decorated = new Map<PDFPage, { header?: Header; title?: boolean }>();
  private fontKeys = new Map<PDFPage, Map<PDFFont, PDFName>>();
  page: PDFPage | undefined;
  y = TOP;
  header: Header | undefined;

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: PdfFonts,
    private readonly producedBy: string,
  ) {}

  /** A title page: no header, "Produced by ..." in the footer. */
  titlePage(): PDFPage {
    const page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.decorated.set(page, { title: true });
    this.page = page;
    return page;
  }

  /** Starts a fresh body page under the current header. */
  newPage(): PDFPage {
    const page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.decorated.set(page, { header: this.header });
    this.page = page;
    this.y = TOP;
    return page;
  }

  /** Makes room for `height` points below the cursor, on a new page if this one is full. */
  ensure(height: number): PDFPage {
    if (!this.page || this.y - height < BOTTOM) this.newPage();
    return this.page!;
  }

  /** Draws text at (x, y) in `face`, falling back per character; returns the width drawn. */
  text(page: PDFPage, text: string, x: number, y: number, face: FaceName, size: number, color: RGB = BLACK): number {
    const chain = faceChain(this.fonts, face);
    let advance = 0;
    for (const run of splitByCoverage(printable(text), chain.map((f) => f.covers))) {
      const font = chain[run.face].font;
      page.pushOperators(
        pushGraphicsState(),
        beginText(),
        setFillingRgbColor(color.red, color.green, color.blue),
        setFontAndSize(this.fontKey(page, font), size),
        moveText(x + advance, y),
        showText(font.encodeText(run.text)),
        endText(),
        popGraphicsState(),
      );
      advance += font.widthOfTextAtSize(run.text, size);
    }
    return advance;
  }

  /** The page's resource name for `font`, added once (page.drawText would add one per call). */
  private fontKey(page: PDFPage, font: PDFFont): PDFName {
    let keys = this.fontKeys.get(page);
    if (!keys) this.fontKeys.set(page, (keys = new Map()));
    let key = keys.get(font);
    if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
    return key;
  }

  /** The width `text` takes in `face` at `size`, with the same fallbacks as `text`. */
  measure(text: string, face: FaceName, size: number): number {
    const chain = faceChain(this.fonts, face);
    return splitByCoverage(printable(text), chain.map((f) => f.covers)).reduce((w, run) => w + chain[run.face].font.widthOfTextAtSize(run.text, size), 0);
  }

  centred(page: PDFPage, text: string, y: number, face: FaceName, size: number, color: RGB = BLACK): void {
    this.text(page, text, (PAGE.width - this.measure(text, face, size)) / 2, y, face, size, color);
  }

  rule(page: PDFPage, y: number, thickness = 0.4, from = MARGIN, to = PAGE.width - MARGIN): void {
    page.drawLine({ start: { x: from, y }, end: { x: to, y }, thickness, color: BLACK });
  }

  /** Headers and footers on the pages this writer made; embedded pages stay untouched but count. */
  finish(): void {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      const marks = this.decorated.get(page);
      if (!marks) return;
      if (marks.title) {
        this.centred(page, `Produced by ${this.producedBy}`, MARGIN / 2, 'sans', 8, GREY);
        return;
      }
      const headerY = PAGE.height - MARGIN + 6;
      if (marks.header) {
        this.text(page, marks.header.left, MARGIN, headerY + 4, 'sans', 9, GREY);
        const right = marks.header.right;
        this.text(page, right, PAGE.width - MARGIN - this.measure(right, 'sans', 9), headerY + 4, 'sans', 9, GREY);
      }
      this.rule(page, headerY);
      this.rule(page, MARGIN - 10);
      this.centred(page, `Page ${i + 1} of ${pages.length}`, MARGIN - 24, 'sans', 9);
    });
  }
}
