// A check-in's evidence file (docs/check-ins.md): judged by its bytes as comment attachments are,
// then an image is re-encoded (its metadata and anything hidden in it dropped) and a PDF kept as it
// is once it is a whole PDF. Nothing is stored here: the caller stores the prepared file last.
import { rm } from 'node:fs/promises';
import { MAX_EVIDENCE_BYTES, reencodedImageType } from '../../../domain/engagements.ts';
import { badRequest, tooLarge } from '../../../lib/errors.ts';
import { checkPdf, detectType } from '../../../lib/file-kinds.ts';
import type { UploadedFile } from '../../../lib/files.ts';
import { reencodeImage } from '../../../lib/image-reencode.ts';

export interface PreparedEvidence {
  /** The file to store: the re-encoded image beside the upload, or the uploaded PDF itself. */
  path: string;
  contentType: string;
  ext: string;
  bytes: number;
  /** The name the uploader gave it, with the stored type's extension; shown, never used as a path. */
  filename: string;
  /** Removes what was made here (the upload's own file goes with its request). */
  discard(): Promise<void>;
}

const NOT_ACCEPTED = 'Evidence must be an image (JPEG, PNG, GIF, WebP, TIFF, AVIF or HEIF) or a PDF document';

/** The uploaded name, trimmed to 255 characters, with the extension of what is stored. */
function shownName(uploaded: string, ext: string): string {
  const base = (uploaded.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'evidence').slice(0, 240);
  return `${base}.${ext}`;
}

/** 413 at 30 MB or more, 400 for an empty file or anything but an image libvips reads or a whole PDF. */
export async function prepareEvidence(file: UploadedFile): Promise<PreparedEvidence> {
  if (file.size === 0) throw badRequest('The attachment is empty');
  if (file.size >= MAX_EVIDENCE_BYTES) throw tooLarge('Attachment exceeds the maximum attachment size of 30MB.');
  const type = await detectType(file.path);
  if (type?.mime === 'application/pdf') {
    if (!(await checkPdf(file.path)).ok) throw badRequest('The PDF is incomplete or damaged');
    return {
      path: file.path,
      contentType: 'application/pdf',
      ext: 'pdf',
      bytes: file.size,
      filename: shownName(file.filename, 'pdf'),
      discard: async () => {},
    };
  }
  const image = type ? reencodedImageType(type.mime) : null;
  if (!image) throw badRequest(NOT_ACCEPTED);
  const path = `${file.path}.${image.ext}`;
  const discard = () => rm(path, { force: true });
  try {
    const bytes = await reencodeImage(file.path, path, image.format);
    return { path, contentType: image.mime, ext: image.ext, bytes, filename: shownName(file.filename, image.ext), discard };
  } catch (error) {
    await discard();
    throw error;
  }
}
