// fontkit, parsing each font file once. pdf-lib parses the font file again for every document
// that embeds it (`embedFont` calls `fontkit.create`), and the first text laid out in a fresh
// parse decodes DejaVu's large substitution and positioning tables: about 100 ms of CPU for every
// submission PDF, more than the rest of a small one's render.
//
// Each document gets a view of the parsed font with a glyph cache of its own. The parsed tables
// are only read, so views share them; glyphs are not: fontkit keeps the first glyph object made
// for an id, with the characters it was made for, and a subset's encoding makes the components of
// accented letters with no characters at all. Shared across documents, an `e` made that way for
// one PDF's `é` lost its ToUnicode entry in the next PDF (its text no longer searchable or
// copyable). Within one document this is fontkit's own behaviour, as before. Everything here runs
// synchronously on one thread, so the shared stream's position cannot be moved under a read.
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument } from 'pdf-lib';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type Font = ReturnType<typeof fontkit.create>;

/** Keyed by the bytes' identity: callers keep one buffer per font file. */
const parsed = new WeakMap<Uint8Array, Font>();

export const sharedFontkit: Fontkit = {
  create(buffer: Uint8Array, postscriptName?: string) {
    if (postscriptName !== undefined) return fontkit.create(buffer, postscriptName);
    let font = parsed.get(buffer);
    if (!font) {
      font = fontkit.create(buffer);
      parsed.set(buffer, font);
    }
    // fontkit's TTFFont keeps its glyph objects in `_glyphs`; the view's own starts empty.
    return Object.assign(Object.create(font) as Font, { _glyphs: {} });
  },
} as Fontkit;
