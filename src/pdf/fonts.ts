// The fonts every generated PDF uses: DejaVu Sans and Sans Mono (from the dejavu-fonts-ttf
// package), embedded as subsets through fontkit so any character they cover survives. A character
// neither covers falls back to the optional PDF_FALLBACK_FONT (say, a CJK font), else to DejaVu's
// missing-glyph box: the text never makes the job fail.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { sharedFontkit } from './parsed-fonts.ts';

export type FaceName = 'sans' | 'sansBold' | 'mono' | 'monoBold';

const FILES: Record<FaceName, string> = {
  sans: 'DejaVuSans.ttf',
  sansBold: 'DejaVuSans-Bold.ttf',
  mono: 'DejaVuSansMono.ttf',
  monoBold: 'DejaVuSansMono-Bold.ttf',
};

const require = createRequire(import.meta.url);
const bytesCache = new Map<string, Uint8Array>();
const coverageCache = new Map<string, (codePoint: number) => boolean>();

function fontBytes(path: string): Uint8Array {
  let bytes = bytesCache.get(path);
  if (!bytes) {
    bytes = readFileSync(path);
    bytesCache.set(path, bytes);
  }
  return bytes;
}

const dejaVuPath = (face: FaceName) => require.resolve(`dejavu-fonts-ttf/ttf/${FILES[face]}`);

function coverage(path: string): (codePoint: number) => boolean {
  let covers = coverageCache.get(path);
  if (!covers) {
    const font = fontkit.create(fontBytes(path) as Buffer);
    // Asked once per character drawn: the answers for the Basic Multilingual Plane are kept (0 not asked, 1 yes, 2 no).
    const known = new Uint8Array(0x10000);
    covers = (cp) => {
      if (cp > 0xffff) return font.hasGlyphForCodePoint(cp);
      if (known[cp] === 0) known[cp] = font.hasGlyphForCodePoint(cp) ? 1 : 2;
      return known[cp] === 1;
    };
    coverageCache.set(path, covers);
  }
  return covers;
}

/** One embedded face and the code points it has glyphs for. */
export interface Face {
  font: PDFFont;
  covers: (codePoint: number) => boolean;
}

export interface PdfFonts {
  faces: Record<FaceName, Face>;
  /** Tried, in order, for a character the face asked for lacks. */
  fallbacks: Face[];
}

/**
 * Embeds the four faces (and the fallback font, if any) as subsets: a face no text uses costs a few
 * hundred bytes. Fixed names instead of pdf-lib's random subset tags keep rebuilt PDFs identical.
 */
export async function embedFonts(doc: PDFDocument, fallbackFontPath?: string): Promise<PdfFonts> {
  doc.registerFontkit(sharedFontkit);
  const embed = async (path: string, name: string): Promise<Face> => ({
    font: await doc.embedFont(fontBytes(path), { subset: true, customName: name }),
    covers: coverage(path),
  });
  const faces = {} as Record<FaceName, Face>;
  for (const face of Object.keys(FILES) as FaceName[]) faces[face] = await embed(dejaVuPath(face), FILES[face].replace('.ttf', ''));
  const fallbacks = [faces.sans];
  if (fallbackFontPath) fallbacks.push(await embed(fallbackFontPath, 'Fallback'));
  return { faces, fallbacks };
}

/** A piece of text and the font that draws it. */
export interface Run {
  text: string;
  face: number;
}

/**
 * Splits `text` into runs drawn by the first font (by index in `covers`) that has each character;
 * characters none has stay with font 0 (its missing-glyph box). Pure: coverage is a predicate.
 */
export function splitByCoverage(text: string, covers: ((codePoint: number) => boolean)[]): Run[] {
  const runs: Run[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    let face = covers.findIndex((c) => c(cp));
    if (face < 0) face = 0;
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += char;
    else runs.push({ text: char, face });
  }
  return runs;
}

/** The faces to try for text asked in `face`: itself, then the fallbacks. */
export function faceChain(fonts: PdfFonts, face: FaceName): Face[] {
  return [fonts.faces[face], ...fonts.fallbacks.filter((f) => f !== fonts.faces[face])];
}
