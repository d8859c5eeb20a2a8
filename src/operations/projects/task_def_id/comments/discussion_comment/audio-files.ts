import { TRPCError } from '@trpc/server';
import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { attachmentKind, MAX_ATTACHMENT_BYTES } from '../../../../../domain/comment-attachments.ts';
import { detectType } from '../../../../../lib/file-kinds.ts';
import type { Storage } from '../../../../../storage/storage.ts';
import type { FileResult, UploadedFile } from '../../../../../trpc/files.ts';
import { badRequest, forbidden, notFound } from '../../../../../trpc/errors.ts';

/** A discussion's recording must be audio (or an audio/video container, as browsers record), by its bytes. */
export async function checkAudio(file: UploadedFile): Promise<void> {
  if (file.size === 0) throw badRequest('Attachment is empty.');
  if (file.size >= MAX_ATTACHMENT_BYTES) {
    throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'Attachment exceeds the maximum attachment size of 30MB.' });
  }
  const type = await detectType(file.path);
  if (!type || attachmentKind(type.mime) !== 'audio') throw forbidden('Please upload only audio files');
}

/**
 * A stored recording served for a player (Range honoured). Recordings are kept as uploaded under
 * keys without an extension, so the type is read again from the first bytes.
 */
export async function serveAudio(storage: Storage, key: string, filename: string): Promise<FileResult> {
  const sniff = await storage.open(key);
  if (!sniff) throw notFound('File missing');
  const type = await fileTypeFromBuffer(await head(sniff.stream, 4100));
  const file = await storage.open(key);
  if (!file) throw notFound('File missing');
  return {
    filename: `${filename}.${type?.ext ?? 'bin'}`,
    contentType: type?.mime ?? 'application/octet-stream',
    data: file.stream,
    size: file.size,
    asAttachment: false,
    ranges: true,
  };
}

/** The first `length` bytes of a stream, which is then closed. */
async function head(stream: Readable, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      got += (chunk as Buffer).length;
      if (got >= length) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, length);
}
