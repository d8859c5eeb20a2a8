// Just enough of GIF (first frame) and BMP (uncompressed 1/4/8/24/32-bit) to turn them into PNG,
// which pdf-lib embeds. Anything else they meet throws, and the image counts as unreadable.
import { crc32, deflateSync } from 'node:zlib';

export interface Rgba {
  width: number;
  height: number;
  /** width × height × 4 bytes, rows top to bottom. */
  data: Buffer;
}

const MAX_PIXELS = 50_000_000;

function canvas(width: number, height: number): Rgba {
  if (width <= 0 || height <= 0 || width * height > MAX_PIXELS) throw new Error(`unsupported image size ${width}x${height}`);
  return { width, height, data: Buffer.alloc(width * height * 4) };
}

/** An RGBA PNG of the image. */
export function encodePng(image: Rgba): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([head, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(image.width, 0);
  ihdr.writeUInt32BE(image.height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const stride = image.width * 4;
  const raw = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) image.data.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

export function decodeBmp(b: Buffer): Rgba {
  if (b.toString('latin1', 0, 2) !== 'BM') throw new Error('not a BMP');
  const offset = b.readUInt32LE(10);
  const dib = b.readUInt32LE(14);
  const width = b.readInt32LE(18);
  const rawHeight = b.readInt32LE(22);
  const bpp = b.readUInt16LE(28);
  const compression = b.readUInt32LE(30);
  if (![1, 4, 8, 24, 32].includes(bpp) || !(compression === 0 || (compression === 3 && bpp === 32))) throw new Error(`unsupported BMP (${bpp} bit, compression ${compression})`);
  const height = Math.abs(rawHeight);
  const image = canvas(width, height);
  const colours = bpp <= 8 ? b.readUInt32LE(46) || 1 << bpp : 0;
  const palette = 14 + dib;
  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  if (offset + stride * height > b.length) throw new Error('truncated BMP');
  for (let row = 0; row < height; row++) {
    const y = rawHeight > 0 ? height - 1 - row : row;
    const start = offset + row * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      let r: number, g: number, bl: number, a = 255;
      if (bpp >= 24) {
        const p = start + x * (bpp / 8);
        [bl, g, r] = [b[p], b[p + 1], b[p + 2]];
      } else {
        const bit = x * bpp;
        const index = (b[start + (bit >> 3)] >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        if (index >= colours) throw new Error('BMP colour outside its palette');
        const p = palette + index * 4;
        [bl, g, r] = [b[p], b[p + 1], b[p + 2]];
      }
      image.data[o] = r;
      image.data[o + 1] = g;
      image.data[o + 2] = bl;
      image.data[o + 3] = a;
    }
  }
  return image;
}

/** GIF's variable-width LZW, codes read least significant bit first. */
function lzw(minCodeSize: number, data: Buffer, pixels: number): Uint8Array {
  if (minCodeSize < 2 || minCodeSize > 11) throw new Error('bad GIF code size');
  const out = new Uint8Array(pixels);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  let dict: Uint8Array[] = [];
  const reset = () => {
    dict = [];
    for (let i = 0; i < clear; i++) dict.push(Uint8Array.of(i));
    dict.push(new Uint8Array(0), new Uint8Array(0));
  };
  reset();
  let size = minCodeSize + 1;
  let bits = 0;
  let buffer = 0;
  let pos = 0;
  let written = 0;
  let previous: Uint8Array | null = null;
  while (written < pixels) {
    while (bits < size) {
      if (pos >= data.length) return out; // a short last frame keeps what it has
      buffer |= data[pos++] << bits;
      bits += 8;
    }
    const code = buffer & ((1 << size) - 1);
    buffer >>>= size;
    bits -= size;
    if (code === clear) {
      reset();
      size = minCodeSize + 1;
      previous = null;
      continue;
    }
    if (code === end) break;
    let entry: Uint8Array;
    if (code < dict.length) entry = dict[code];
    else if (code === dict.length && previous) entry = Uint8Array.of(...previous, previous[0]);
    else throw new Error('bad GIF data');
    out.set(entry.subarray(0, pixels - written), written);
    written += entry.length;
    if (previous && dict.length < 4096) dict.push(Uint8Array.of(...previous, entry[0]));
    if (dict.length === 1 << size && size < 12) size++;
    previous = entry;
  }
  return out;
}

export function decodeGif(b: Buffer): Rgba {
  if (b.toString('latin1', 0, 4) !== 'GIF8') throw new Error('not a GIF');
  const width = b.readUInt16LE(6);
  const height = b.readUInt16LE(8);
  const image = canvas(width, height);
  let pos = 13;
  let globalTable: Buffer | null = null;
  if (b[10] & 0x80) {
    const n = 3 * (1 << ((b[10] & 7) + 1));
    globalTable = b.subarray(pos, pos + n);
    pos += n;
  }
  let transparent = -1;
  const skipBlocks = () => {
    while (pos < b.length && b[pos] !== 0) pos += b[pos] + 1;
    pos++;
  };
  while (pos < b.length) {
    const kind = b[pos++];
    if (kind === 0x21) {
      const label = b[pos++];
      if (label === 0xf9 && b[pos] === 4 && b[pos + 1] & 1) transparent = b[pos + 4];
      skipBlocks();
    } else if (kind === 0x2c) {
      const [left, top, w, h, flags] = [b.readUInt16LE(pos), b.readUInt16LE(pos + 2), b.readUInt16LE(pos + 4), b.readUInt16LE(pos + 6), b[pos + 8]];
      pos += 9;
      let table = globalTable;
      if (flags & 0x80) {
        const n = 3 * (1 << ((flags & 7) + 1));
        table = b.subarray(pos, pos + n);
        pos += n;
      }
      if (!table) throw new Error('GIF without a colour table');
      const minCodeSize = b[pos++];
      const parts: Buffer[] = [];
      while (pos < b.length && b[pos] !== 0) {
        parts.push(b.subarray(pos + 1, pos + 1 + b[pos]));
        pos += b[pos] + 1;
      }
      const indices = lzw(minCodeSize, Buffer.concat(parts), w * h);
      const rows = flags & 0x40 ? interlacedRows(h) : [...Array(h).keys()];
      for (let i = 0; i < h; i++) {
        const y = top + rows[i];
        for (let x = 0; x < w; x++) {
          const index = indices[i * w + x];
          if (index === transparent || y >= height || left + x >= width || index * 3 + 2 >= table.length) continue;
          const o = (y * width + left + x) * 4;
          image.data[o] = table[index * 3];
          image.data[o + 1] = table[index * 3 + 1];
          image.data[o + 2] = table[index * 3 + 2];
          image.data[o + 3] = 255;
        }
      }
      return image; // the first frame, as the original
    } else {
      break;
    }
  }
  throw new Error('GIF without an image');
}

/** The row each stored row of an interlaced GIF lands on. */
function interlacedRows(h: number): number[] {
  const rows: number[] = [];
  for (const [start, step] of [[0, 8], [4, 8], [2, 4], [1, 2]]) for (let y = start; y < h; y += step) rows.push(y);
  return rows;
}
