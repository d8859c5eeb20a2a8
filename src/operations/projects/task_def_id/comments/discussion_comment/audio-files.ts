import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { attachmentKind, MAX_ATTACHMENT_BYTES } from '../../../../../domain/comment-attachments.ts';
import { detectType } from '../../../../../lib/file-kinds.ts';
import { storedDownload, type Storage } from '../../../../../storage/index.ts';
import type { FileResult, UploadedFile } from '../../../../../lib/files.ts';
import { badRequest, forbidden, notFound, tooLarge } from '../../../../../lib/errors.ts';

/** A discussion's recording must be audio (or an audio/video container, as browsers record), by its bytes. */
export async function checkAudio(file: UploadedFile): Promise<void> {
  if (file.size === 0) throw badRequest('Attachment is empty.');
  if (file.size >= MAX_ATTACHMENT_BYTES) {
    throw tooLarge('Attachment exceeds the maximum attachment size of 30MB.');
  }
  const type = await detectType(file.path);
  if (!type || attachmentKind(type.mime) !== 'audio') throw forbidden('Please upload only audio files');
}

/**
 * A stored recording served for a player (Range honoured). Recordings are kept as uploaded under
 * keys without an extension, so the type is read again from the first bytes: a ranged read of
 * those alone. The recording itself is opened as it is sent, all of it or the range a seek asks for.
 */
export async function serveAudio(storage: Storage, key: string, filename: string): Promise<FileResult> {
  const file = await storedDownload(storage, key);
  const sniff = file && (await storage.open(key, { start: 0, end: SNIFF_BYTES - 1 }));
  if (!file || !sniff) throw notFound('File missing');
  const type = await fileTypeFromBuffer(await readStream(sniff.stream));
  return {
    filename: `${filename}.${type?.ext ?? 'bin'}`,
    contentType: type?.mime ?? 'application/octet-stream',
    data: file,
    size: file.size,
    asAttachment: false,
    ranges: true,
  };
}

/** What file-type reads at most to tell a type. */
const SNIFF_BYTES = 4100;

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
