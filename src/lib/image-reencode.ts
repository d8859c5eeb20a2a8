// Re-encodes an uploaded image with sharp (libvips): the pixels are decoded and written again, so
// what the file carried besides them (EXIF with GPS positions, XMP, comments, ICC profiles, bytes
// appended after the image or hidden in unknown chunks) is gone. The orientation EXIF gave is
// applied to the pixels first, so a phone photo stays upright.
//
// libvips works in its own threads, off the event loop, but each image holds its decoded pixels
// (up to 4 bytes a pixel) while it is written. So it is bounded (docs/check-ins.md): at most
// MAX_IMAGE_PIXELS pixels an image (40 MP: 160 MB decoded at worst), at most
// CONCURRENT_REENCODES images at once in a process (the others wait their turn), one libvips
// thread each, and no libvips operation cache.
import { stat } from 'node:fs/promises';
import sharp from 'sharp';
import { badRequest } from './errors.ts';

export const MAX_IMAGE_PIXELS = 40_000_000;
export const CONCURRENT_REENCODES = 2;

sharp.cache(false);
sharp.concurrency(1);

let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_REENCODES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * Writes the image at `from` again as `format` at `to` and answers its size in bytes; a file
 * libvips cannot decode, or one over MAX_IMAGE_PIXELS, is a 400.
 */
export function reencodeImage(from: string, to: string, format: 'jpeg' | 'webp' | 'png'): Promise<number> {
  return inTurn(async () => {
    try {
      // failOn 'error': a truncated or corrupt image is refused rather than half decoded.
      await sharp(from, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated: false })
        .rotate()
        .toFormat(format, format === 'png' ? { compressionLevel: 6 } : { quality: 85 })
        .toFile(to);
    } catch (error) {
      const text = String((error as Error).message ?? error);
      if (/pixel limit/i.test(text)) throw badRequest(`The image is larger than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`);
      throw badRequest('The image could not be read');
    }
    return (await stat(to)).size;
  });
}
