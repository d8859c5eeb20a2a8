// A local S3-compatible server for tests: s3rver (npm) on a free port, its objects in a temporary
// directory, one bucket made. It points the AWS SDK's own variables at itself, as an operator would
// (docs/operating/object-storage.md), including the checksum settings s3rver needs: with the SDK's
// default integrity checksums it stores a streamed PutObject with the aws-chunked framing still on.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rver {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rver;

export interface S3Server {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** The SDK's standard variables for that server (s3rver accepts the fixed key pair S3RVER/S3RVER). */
export function s3Environment(endpoint: string): Record<string, string> {
  return {
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REQUEST_CHECKSUM_CALCULATION: 'when_required',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'when_required',
  };
}

/** Starts the server and sets this process's AWS variables to it; throws when it cannot start. */
export async function startS3Server(bucket = 'course-files'): Promise<S3Server> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, s3Environment(endpoint));
  return {
    endpoint,
    bucket,
    async close() {
      // The SDK keeps connections alive; close() alone would wait for them.
      server.httpServer.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
