// Storage in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage), under an optional key prefix.
// Every method is one object operation. A write is one PutObject or one multipart upload, and S3
// makes an object visible only when that completes, so a reader sees the old object or the new one,
// never part of one. Streams stay streams: lib-storage holds at most `queueSize × partSize` bytes.
//
// Credentials, region and endpoint come from the SDK's own variables (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL_S3, AWS_REQUEST_CHECKSUM_CALCULATION, ...):
// the client is built without overriding them (docs/operating/object-storage.md).
import { createReadStream } from 'node:fs';
import { stat as statFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { parseContentRange, sliceStream } from '../lib/byte-ranges.ts';
import { validKey } from './keys.ts';
import type { ByteRange, Storage, StoredFile, StoredStat } from './storage.ts';

export interface S3Location {
  bucket: string;
  /** Key prefix without slashes at either end; empty for the bucket's root. */
  prefix: string;
  /** Bucket in the path (`endpoint/bucket/key`) rather than the host name: MinIO, Ceph, Garage, s3rver. */
  forcePathStyle: boolean;
  /** S3_TIMEOUT_SECONDS in ms: connecting, and a request with no bytes moving, fail after this long. */
  timeoutMs: number;
}

/**
 * The SDK waits forever by default: a store that stops answering would hold a request, or a job
 * whose worker keeps its heartbeat, for good. An idle-socket timeout (not a whole-request one) bounds
 * that without cutting a long upload or download that is still moving; the caller sees a storage
 * fault (503, or a job retried later).
 */
export function s3Client(location: S3Location): S3Client {
  return new S3Client({
    forcePathStyle: location.forcePathStyle,
    requestHandler: { connectionTimeout: location.timeoutMs, socketTimeout: location.timeoutMs },
  });
}

/** 8 MiB parts, 4 in flight: a stream of any size holds at most 32 MiB of itself in memory. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

const isStream = (source: Readable | { path: string }): source is Readable => typeof (source as Readable).pipe === 'function';

/** The SDK's answer for a key (or a range) that is not there; a missing bucket is not "missing". */
const missing = (error: unknown) => ['NoSuchKey', 'NotFound'].includes((error as Error).name);
const rangeBeyondEnd = (error: unknown) =>
  (error as Error).name === 'InvalidRange' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416;

/**
 * S3's errors carry their kind in `name`; the store's faults (src/storage/faults.ts) read a `code`
 * like a file system's, so a refused, full or unreachable store answers 503 or 507 as a disk does.
 * Only the SDK's errors (they carry `$metadata`, network ones too) are read so: a source stream's
 * own failure passes unchanged.
 */
function asStorageError(error: unknown): unknown {
  if (!error || typeof error !== 'object' || !('$metadata' in error)) return error;
  const e = error as Error & { $metadata: { httpStatusCode?: number } };
  const status = e.$metadata.httpStatusCode;
  const wrapped = (message: string, code: string) => Object.assign(new Error(`${message}: ${e.name} ${e.message}`, { cause: error }), { code });
  if (['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AllAccessDisabled'].includes(e.name) || status === 403) {
    return wrapped('object storage refused the request', 'EACCES');
  }
  if (['QuotaExceeded', 'XMinioStorageFull'].includes(e.name) || status === 507) return wrapped('object storage is full', 'ENOSPC');
  if (status === undefined || status >= 500) return wrapped('object storage cannot be reached', 'STORAGE_UNAVAILABLE');
  // A bucket that is not there is the operator's to fix, as a store that does not answer is.
  if (e.name === 'NoSuchBucket') return wrapped('the bucket of STORAGE_URL does not exist', 'STORAGE_UNAVAILABLE');
  return error;
}

async function attempt<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asStorageError(error);
  }
}

/**
 * Drops the parts of a failed multipart upload. Done here rather than by lib-storage
 * (leavePartsOnError: false), whose failed abort would replace the error that says why the upload
 * failed; a store that cannot abort (s3rver) leaves the parts to the bucket's lifecycle rule.
 */
async function abandon(client: S3Client, Bucket: string, Key: string, upload: Upload): Promise<void> {
  if (!upload.uploadId) return;
  await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: upload.uploadId })).catch(() => {});
}

export function s3Storage(location: S3Location, client = s3Client(location)): Storage {
  const Bucket = location.bucket;
  const base = location.prefix ? `${location.prefix}/` : '';
  const objectKey = (key: string) => base + validKey(key);

  const statOf = async (Key: string): Promise<StoredStat | null> => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (missing(error)) return null;
      throw asStorageError(error);
    }
  };

  return {
    location: `s3://${Bucket}${location.prefix ? `/${location.prefix}` : ''}`,

    async put(key, source) {
      const Key = objectKey(key);
      const Body = isStream(source) ? source : createReadStream(source.path);
      const ContentLength = isStream(source) ? undefined : (await statFile(source.path)).size;
      const upload = new Upload({ client, params: { Bucket, Key, Body, ContentLength }, partSize: PART_SIZE, queueSize: QUEUE_SIZE, leavePartsOnError: true });
      try {
        await upload.done();
      } catch (error) {
        await abandon(client, Bucket, Key, upload);
        throw asStorageError(error);
      } finally {
        // Done with the source either way; a failed upload must not leave the caller's stream open (as pipeline would not).
        Body.destroy();
      }
      const stored = await statOf(Key);
      if (!stored) throw new Error(`stored object ${key} is not there after its upload completed`);
      return stored;
    },

    async open(key, range?: ByteRange): Promise<StoredFile | null> {
      const Key = objectKey(key);
      try {
        const got = await client.send(new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined }));
        const body = got.Body as Readable;
        // A range's answer names what it holds and the whole object's size: "bytes 0-9/1234".
        const answered = parseContentRange(got.ContentRange);
        const size = answered ? answered.size : (got.ContentLength ?? 0);
        const modifiedAt = got.LastModified ?? new Date(0);
        if (!range) return { size, modifiedAt, stream: body };
        // HTTP lets a server answer a range with more (all of it: s3rver does for `bytes=0-0`); cut it to what was asked.
        const from = answered ? answered.start : 0;
        const to = answered ? answered.end : size - 1;
        const end = Math.min(range.end ?? size - 1, size - 1);
        return { size, modifiedAt, stream: from === range.start && to === end ? body : sliceStream(body, range.start - from, end - from) };
      } catch (error) {
        if (missing(error)) return null;
        if (range && rangeBeyondEnd(error)) {
          // Past the end: no bytes, as a file read there gives none.
          const stored = await statOf(Key);
          if (!stored) return null;
          return { ...stored, stream: Readable.from([]) };
        }
        throw asStorageError(error);
      }
    },

    stat: (key) => statOf(objectKey(key)),

    async exists(key) {
      return (await statOf(objectKey(key))) !== null;
    },

    async delete(key) {
      // S3 answers a delete of a missing key with success, as `rm -f` does.
      await attempt(() => client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) })));
    },

    async copy(from, to) {
      const source = objectKey(from);
      const target = objectKey(to);
      try {
        // Server-side, one request (objects up to 5 GB: far beyond any upload limit here).
        await client.send(new CopyObjectCommand({ Bucket, Key: target, CopySource: `${Bucket}/${source.split('/').map(encodeURIComponent).join('/')}` }));
        return true;
      } catch (error) {
        if (missing(error)) return false;
        throw asStorageError(error);
      }
    },

    async *list(prefix) {
      const folder = `${base}${validKey(prefix)}/`;
      const pages = paginateListObjectsV2({ client }, { Bucket, Prefix: folder });
      try {
        for await (const page of pages) {
          for (const object of page.Contents ?? []) {
            if (!object.Key) continue;
            yield { key: object.Key.slice(base.length), size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
          }
        }
      } catch (error) {
        throw asStorageError(error);
      }
    },
  };
}
