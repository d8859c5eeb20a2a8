// One byte range of a download (RFC 9110 §14): what a media player asks for when it seeks.
import { Readable } from 'node:stream';

export type RangeAnswer = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * The range a `Range` header asks of `size` bytes: `bytes=a-b`, `bytes=a-` or `bytes=-n`. Null
 * (send everything) when there is no header, another unit, several ranges or a malformed one.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Bytes `start`..`end` (inclusive) of a stream; the source is closed once they have passed. */
export function sliceStream(source: Readable, start: number, end: number): Readable {
  async function* part() {
    let position = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const from = Math.max(0, start - position);
      const to = Math.min(chunk.length, end + 1 - position);
      if (to > from) yield chunk.subarray(from, to);
      position += chunk.length;
      if (position > end) break;
    }
  }
  return Readable.from(part(), { objectMode: false });
}
