// GIF, BMP and TIFF images as PNG, which pdf-lib embeds (it reads only PNG and JPEG). Jimp decodes
// them in plain JavaScript (the first frame of an animation, the first page of a TIFF).
import { Jimp } from 'jimp';

/** The image as a PNG; throws when the bytes do not decode. */
export async function toPng(bytes: Uint8Array): Promise<Buffer> {
  const image = await Jimp.read(Buffer.from(bytes));
  return image.getBuffer('image/png');
}
