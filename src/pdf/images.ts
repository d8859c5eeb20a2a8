// Submitted images (beyond-spec.md §8.2): scaled to fit the text width and the page height,
// aspect kept, on a page of their own. PNG and JPEG are embedded as they are; GIF (first frame),
// BMP and TIFF are turned into PNG first, since pdf-lib reads neither. An image that does not
// decode is the student's to fix.
import { imageSize } from 'image-size';
import type { PDFDocument, PDFImage } from 'pdf-lib';
import { SubmissionFileError } from './errors.ts';
import { BOTTOM, MARGIN, TEXT_WIDTH, TOP } from './layout.ts';
import { toPng } from './raster.ts';
import type { PdfWriter } from './writer.ts';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff' | null;

/** The image format by its first bytes. */
export function imageFormat(bytes: Uint8Array): ImageFormat {
  const b = Buffer.from(bytes.subarray(0, 8));
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (b.subarray(0, 2).toString('latin1') === 'BM') return 'bmp';
  const tiff = b.subarray(0, 4).toString('hex');
  if (tiff === '49492a00' || tiff === '4d4d002a') return 'tiff';
  return null;
}

/** Width and height of an image scaled into a box, never enlarged. */
export function fitInto(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: width * scale, height: height * scale };
}

/**
 * Decoding takes about 4 bytes a pixel, several times over (pdf-lib splits PNG's colour and alpha,
 * Jimp converts to PNG), and those buffers lie outside a thread's heap cap: a 10 MB file of one
 * colour can declare a billion pixels. 25 megapixels (5000×5000, more than a 5K screen) decode in
 * about 250 MB.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;

/** SubmissionFileError when the image's header declares more pixels than MAX_IMAGE_PIXELS; read before any decoding. */
export function checkImagePixels(bytes: Uint8Array): void {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return; // the decoder says what is wrong with it
  }
  const { width = 0, height = 0 } = size;
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new SubmissionFileError(
      `is an image of ${width}×${height} pixels, more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels a PDF page takes: scale it down and upload it again`,
    );
  }
}

/** Embeds any accepted image kind; throws when the bytes are not an image that decodes. */
export async function embedImage(doc: PDFDocument, bytes: Uint8Array): Promise<PDFImage> {
  const format = imageFormat(bytes);
  // JPEG is embedded as it is, never decoded; every other kind is.
  if (format !== 'jpeg') checkImagePixels(bytes);
  if (format === 'png') return doc.embedPng(bytes);
  if (format === 'jpeg') return doc.embedJpg(bytes);
  if (format !== null) return doc.embedPng(await toPng(bytes));
  throw new Error('not an image that can be read');
}

async function embed(writer: PdfWriter, bytes: Uint8Array): Promise<PDFImage> {
  const format = imageFormat(bytes);
  try {
    return await embedImage(writer.doc, bytes);
  } catch (error) {
    if (error instanceof SubmissionFileError) throw error;
    throw new SubmissionFileError(format ? `is a ${format.toUpperCase()} image that cannot be read` : 'is not an image that can be read');
  }
}

/** Draws the image at the top of a fresh page, scaled into the page. */
export async function drawImage(writer: PdfWriter, bytes: Uint8Array): Promise<void> {
  const image = await embed(writer, bytes);
  if (image.width === 0 || image.height === 0) throw new SubmissionFileError('is an empty image');
  const size = fitInto(image.width, image.height, TEXT_WIDTH, TOP - BOTTOM);
  const page = writer.ensure(size.height);
  writer.y -= size.height;
  page.drawImage(image, { x: MARGIN + (TEXT_WIDTH - size.width) / 2, y: writer.y, ...size });
}
