// fontkit, remembering each font it has parsed. pdf-lib parses the font file again for every
// document that embeds it (`embedFont` calls `fontkit.create`), and the first text laid out in a
// fresh parse decodes DejaVu's large substitution and positioning tables: about 100 ms of CPU for
// every submission PDF, more than the rest of a small one's render. A parsed font is only read
// afterwards (each embedding makes its own subset), and all of it runs synchronously on one
// thread, so documents can share it. Keyed by the bytes' identity: callers keep one buffer per file.
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument } from 'pdf-lib';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];

const parsed = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();

export const sharedFontkit: Fontkit = {
  create(buffer: Uint8Array, postscriptName?: string) {
    if (postscriptName !== undefined) return fontkit.create(buffer, postscriptName);
    let font = parsed.get(buffer);
    if (!font) {
      font = fontkit.create(buffer);
      parsed.set(buffer, font);
    }
    return font;
  },
} as Fontkit;
