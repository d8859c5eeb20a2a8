// Page geometry and the pure rules that place text: A4 with 2 cm margins, as the original's
// LaTeX layout (beyond-spec.md §8.1), and word wrapping by measured width.

export const PAGE = { width: 595.28, height: 841.89 };
export const MARGIN = 56.69;
export const TEXT_WIDTH = PAGE.width - 2 * MARGIN;
/** Lowest baseline body text may use; the footer sits below it. */
export const BOTTOM = MARGIN;
/** Highest baseline of body text; the header sits above it. */
export const TOP = PAGE.height - MARGIN - 12;

/**
 * Breaks `text` into lines no wider than `maxWidth` by `measure`, at spaces where it can and
 * inside a word only when the word alone is too wide. Keeps at least one line.
 */
export function wrapWords(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(\s+)/).filter((w) => w !== '')) {
    const candidate = line + word;
    if (measure(candidate) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = /^\s+$/.test(word) ? '' : word;
    while (measure(line) > maxWidth && [...line].length > 1) {
      const chars = [...line];
      let n = chars.length - 1;
      while (n > 1 && measure(chars.slice(0, n).join('')) > maxWidth) n--;
      lines.push(chars.slice(0, n).join(''));
      line = chars.slice(n).join('');
    }
  }
  if (line.trim() !== '' || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/** Drops control characters a font cannot draw (tabs and newlines are handled before). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it removes control characters
export const printable = (text: string): string => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\r]/g, '');
