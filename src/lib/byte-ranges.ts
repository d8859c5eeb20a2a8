// Byte ranges (RFC 9110 §14), in the one place both ends of a ranged download read them: the
// `Range` header a client sends (compat/plugin.ts, for media a player seeks in) and the
// `Content-Range` an object store answers with (src/storage/s3.ts), and the one cut of a stream
// to a range, for a server that answers with more than was asked.
import { Readable } from 'node:stream';

/** Bytes `start` to `end`, both inclusive, as HTTP counts them. */
export interface InclusiveRange {
  start: number;
  end: number;
}

export type RangeAnswer = InclusiveRange | 'unsatisfiable' | null;

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

/** What a 206's `Content-Range: bytes a-b/size` says it holds; null for anything else (`*` sizes too). */
export function parseContentRange(header: string | undefined): (InclusiveRange & { size: number }) | null {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header ?? '');
  return m ? { start: Number(m[1]), end: Number(m[2]), size: Number(m[3]) } : null;
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
