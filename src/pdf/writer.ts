// Writes body pages top to bottom, starting new ones as they fill, and decorates them at the end
// (header "File i of n" and the requirement's name, footer "Page N of M"; beyond-spec.md §8.1),
// when the total page count, embedded pages included, is known.
import { deflateSync } from 'node:zlib';
import { rgb, type PDFDocument, type PDFFont, type PDFName, type PDFPage, type RGB } from 'pdf-lib';
import { faceChain, splitByCoverage, type FaceName, type PdfFonts } from './fonts.ts';
import { BOTTOM, MARGIN, PAGE, TOP, printable } from './layout.ts';

/** A number as a content stream writes it: at most three decimals, no exponent. */
const num = (n: number): string => String(Math.round(n * 1000) / 1000);

const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Shaped pieces of text remembered per font (see `shaped`); a few megabytes at most. */
const SHAPED_CACHE = 20_000;

export const BLACK = rgb(0, 0, 0);
export const GREY = rgb(0.45, 0.45, 0.45);

export interface Header {
  left: string;
  right: string;
}

/** Thrown by `newPage` once the file being drawn has filled the pages it may (`pagesLeft`). */
export class PageLimitReached extends Error {}

export class PdfWriter {
  private decorated = new Map<PDFPage, { header?: Header; title?: boolean }>();
  private fontKeys = new Map<PDFPage, Map<PDFFont, PDFName>>();
  private shapes = new Map<PDFFont, Map<string, { hex: string; width: number }>>();
  private asciiGlyphs = new Map<PDFFont, { hex: string; width: number }[]>();
  /** Text operators drawn on a page and not yet written into its content (see `text`). */
  private pending = new Map<PDFPage, string[]>();
  page: PDFPage | undefined;
  y = TOP;
  header: Header | undefined;
  /** Pages the file being drawn may still start (PDF_MAX_PAGES_PER_FILE); undefined: no limit. */
  pagesLeft: number | undefined;

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: PdfFonts,
    private readonly producedBy: string,
  ) {}

  /** A title page: no header, "Produced by ..." in the footer. */
  titlePage(): PDFPage {
    this.flush(this.page);
    const page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.decorated.set(page, { title: true });
    this.page = page;
    return page;
  }

  /** Starts a fresh body page under the current header; PageLimitReached when `pagesLeft` is used up. */
  newPage(): PDFPage {
    if (this.pagesLeft !== undefined) {
      if (this.pagesLeft <= 0) throw new PageLimitReached(`the file's pages are used up`);
      this.pagesLeft--;
    }
    this.flush(this.page);
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

  /**
   * Draws text at (x, y) in `face`, falling back per character; returns the width drawn. The
   * operators are kept as text and written into one compressed stream per page (`flush`): as
   * pdf-lib objects, a page of code took over a megabyte of heap until the document was saved.
   */
  text(page: PDFPage, text: string, x: number, y: number, face: FaceName, size: number, color: RGB = BLACK): number {
    const chain = faceChain(this.fonts, face);
    let ops = this.pending.get(page);
    if (!ops) {
      ops = [];
      this.pending.set(page, ops);
    }
    let advance = 0;
    for (const run of splitByCoverage(
      printable(text),
      chain.map((f) => f.covers),
    )) {
      const font = chain[run.face].font;
      const { hex, width } = this.shaped(font, run.text);
      const colour = `${num(color.red)} ${num(color.green)} ${num(color.blue)} rg`;
      ops.push(`BT ${this.fontKey(page, font)} ${num(size)} Tf ${colour} ${num(x + advance)} ${num(y)} Td ${hex} Tj ET`);
      advance += width * size;
    }
    return advance;
  }

  /**
   * The glyphs of `text` in `font` (as a Tj operand) and its width at 1 pt. Each costs a fontkit
   * layout, and code repeats its tokens (keywords, indentation, names) thousands of times, so
   * they are remembered, up to SHAPED_CACHE of them per font.
   */
  private shaped(font: PDFFont, text: string): { hex: string; width: number } {
    if (PLAIN_ASCII.test(text)) return this.shapedAscii(font, text);
    let cache = this.shapes.get(font);
    if (!cache) {
      cache = new Map();
      this.shapes.set(font, cache);
    }
    let shape = cache.get(text);
    if (!shape) {
      if (cache.size >= SHAPED_CACHE) cache.clear();
      // encodeText also adds the glyphs to the font's subset, so a remembered operand stays valid.
      shape = { hex: font.encodeText(text).toString(), width: font.widthOfTextAtSize(text, 1) };
      cache.set(text, shape);
    }
    return shape;
  }

  /**
   * Printable ASCII needs no shaping (no marks, no joining), so its glyphs are looked up one
   * character at a time: most code is made of it, and its names and numbers rarely repeat whole.
   */
  private shapedAscii(font: PDFFont, text: string): { hex: string; width: number } {
    let glyphs = this.asciiGlyphs.get(font);
    if (!glyphs) {
      glyphs = [];
      this.asciiGlyphs.set(font, glyphs);
    }
    let hex = '';
    let width = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let glyph = glyphs[code];
      if (!glyph) glyphs[code] = glyph = { hex: font.encodeText(text[i]).toString().slice(1, -1), width: font.widthOfTextAtSize(text[i], 1) };
      hex += glyph.hex;
      width += glyph.width;
    }
    return { hex: `<${hex}>`, width };
  }

  /** Writes the text drawn on `page` so far into a compressed content stream of the page's own. */
  private flush(page: PDFPage | undefined): void {
    const ops = page && this.pending.get(page);
    if (!page || !ops?.length) return;
    // zlib's deflate, not pdf-lib's JavaScript one: the same stream, several times faster.
    const stream = this.doc.context.stream(deflateSync(Buffer.from(`q\n${ops.join('\n')}\nQ\n`, 'latin1')), { Filter: 'FlateDecode' });
    page.node.addContentStream(this.doc.context.register(stream));
    this.pending.delete(page);
  }

  /** The page's resource name for `font`, added once (page.drawText would add one per call). */
  private fontKey(page: PDFPage, font: PDFFont): PDFName {
    let keys = this.fontKeys.get(page);
    if (!keys) {
      keys = new Map();
      this.fontKeys.set(page, keys);
    }
    let key = keys.get(font);
    if (!key) {
      key = page.node.newFontDictionary(font.name, font.ref);
      keys.set(font, key);
    }
    return key;
  }

  /** The width `text` takes in `face` at `size`, with the same fallbacks as `text`. */
  measure(text: string, face: FaceName, size: number): number {
    const chain = faceChain(this.fonts, face);
    return splitByCoverage(
      printable(text),
      chain.map((f) => f.covers),
    ).reduce((w, run) => w + this.shaped(chain[run.face].font, run.text).width * size, 0);
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
    for (const page of [...this.pending.keys()]) this.flush(page);
  }
}
