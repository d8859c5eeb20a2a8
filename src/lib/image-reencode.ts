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
//
// sharp is loaded on the first image, not at start-up: a host without its native binaries (an
// install that left out optional dependencies) still runs everything else, and answers 503 here.
import { stat } from 'node:fs/promises';
import type { Sharp, SharpOptions } from 'sharp';
import { badRequest, serviceUnavailable } from './errors.ts';

export const MAX_IMAGE_PIXELS = 40_000_000;
export const CONCURRENT_REENCODES = 2;

type SharpFactory = (input: string, options: SharpOptions) => Sharp;
let loading: Promise<SharpFactory> | undefined;

function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(
    ({ default: sharp }) => {
      sharp.cache(false);
      sharp.concurrency(1);
      return sharp;
    },
    (error: unknown) => {
      loading = undefined;
      throw serviceUnavailable('Images cannot be re-encoded on this server (the sharp module did not load)', error);
    },
  );
  return loading;
}

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
    const sharp = await loadSharp();
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
