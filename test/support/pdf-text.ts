// Reads back the text of a PDF page for assertions: each font's ToUnicode map turns the glyph ids
// of `<hex> Tj` back into characters (as pdf-lib writes them); `(literal) Tj` is taken as Latin-1.
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFRef, type PDFPage } from 'pdf-lib';

const bytesOf = (stream: PDFRawStream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');

function toUnicode(doc: PDFDocument, font: PDFDict): Map<string, string> {
  const map = new Map<string, string>();
  const stream = doc.context.lookup(font.get(PDFName.of('ToUnicode')));
  if (!(stream instanceof PDFRawStream)) return map;
  const text = bytesOf(stream);
  const utf16 = (hex: string) => Buffer.from(hex, 'hex').swap16().toString('utf16le');
  for (const [, section] of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, gid, uni] of section.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(gid.toLowerCase(), utf16(uni));
  }
  for (const [, section] of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, uni] of section.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const [a, b, u] = [parseInt(from, 16), parseInt(to, 16), parseInt(uni, 16)];
      for (let g = a; g <= b; g++) map.set(g.toString(16).padStart(from.length, '0'), String.fromCodePoint(u + g - a));
    }
  }
  return map;
}

export function pageText(doc: PDFDocument, page: PDFPage): string {
  const fonts = new Map<string, Map<string, string>>();
  const fontDict = page.node.Resources()?.lookup(PDFName.of('Font'));
  if (fontDict instanceof PDFDict) {
    for (const [name, ref] of fontDict.entries()) {
      const font = doc.context.lookup(ref as PDFRef);
      if (font instanceof PDFDict) fonts.set(name.asString(), toUnicode(doc, font));
    }
  }
  const contents = doc.context.lookup(page.node.get(PDFName.of('Contents')));
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  let out = '';
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    let current = new Map<string, string>();
    for (const [, font, hex, literal] of bytesOf(stream).matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      if (font) current = fonts.get(font) ?? new Map();
      else if (hex !== undefined) {
        for (let i = 0; i < hex.length; i += 4) out += current.get(hex.slice(i, i + 4).toLowerCase()) ?? '\uFFFD';
        out += ' ';
      } else out += `${literal.replace(/\\(.)/g, '$1')} `;
    }
  }
  return out;
}

/** Every page's text, in order. */
export async function pdfPagesText(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => pageText(doc, page));
}
