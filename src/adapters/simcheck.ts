import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { Config } from '../config.ts';

// The similarity-check service, spoken to as the TurnItIn Core API (v1) that the original used:
// bearer API key, integration name/version headers, JSON bodies, raw bytes for uploaded files.

const INTEGRATION_NAME = 'course-service';
const INTEGRATION_VERSION = '1.0';

/** A refusal or failure from the service (`status` 0: it could not be reached or did not answer in time). */
export class SimcheckError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SimcheckPerson {
  id: string;
  given_name: string;
  family_name: string;
  email: string;
}

export interface SimcheckEulaAcceptance {
  user_id: string;
  accepted_timestamp: string;
  language: string;
  version: string;
}

export interface NewSubmission {
  owner: string;
  title: string;
  submitter: string;
  owner_default_permission_set: 'LEARNER';
  submitter_default_permission_set: 'LEARNER' | 'INSTRUCTOR';
  metadata: {
    owners: SimcheckPerson[];
    submitter: SimcheckPerson;
    group_context: { id: string; name: string; owners: string[] };
    group: { id: string; name: string; type: 'ASSIGNMENT' };
  };
  eula?: SimcheckEulaAcceptance;
}

/** Processing states the service reports for a submission or a group attachment. */
export interface RemoteStatus {
  status: string;
  error_code?: string;
}

export interface SimilarityResult {
  status: string;
  overall_match_percentage?: number;
}

export interface SimcheckClient {
  latestEula(): Promise<{ version: string }>;
  eulaHtml(version: string): Promise<string>;
  acceptEula(acceptance: SimcheckEulaAcceptance): Promise<void>;
  createSubmission(submission: NewSubmission): Promise<{ id: string }>;
  /** The document streamed as it is read from storage (`size` bytes, sent as Content-Length), never whole in memory. */
  uploadSubmissionFile(submissionId: string, filename: string, file: StreamedFile): Promise<void>;
  submissionStatus(submissionId: string): Promise<RemoteStatus>;
  requestSimilarityReport(submissionId: string, addToIndex: boolean): Promise<void>;
  similarityResult(submissionId: string): Promise<SimilarityResult>;
  viewerUrl(submissionId: string, viewerUserId: string): Promise<string>;
  requestReportPdf(submissionId: string): Promise<{ id: string }>;
  reportPdfStatus(submissionId: string, pdfId: string): Promise<string>;
  /** The report's bytes as they arrive, for storing as they come. */
  downloadReportPdf(submissionId: string, pdfId: string): Promise<Readable>;
  deleteSubmission(submissionId: string): Promise<void>;
  putGroup(groupId: string, group: { name: string; group_context: { id: string; name: string; owners: string[] }; due_date: string | null }): Promise<void>;
  addGroupAttachment(groupId: string, title: string): Promise<{ id: string }>;
  /** A resources zip's document, streamed out of the zip as it is sent. */
  uploadGroupAttachment(groupId: string, attachmentId: string, filename: string, file: StreamedFile): Promise<void>;
  groupAttachmentStatus(groupId: string, attachmentId: string): Promise<RemoteStatus>;
  deleteGroupAttachment(groupId: string, attachmentId: string): Promise<void>;
}

type Settings = Config['simcheck'];

/** A file sent as a stream of known length. */
export interface StreamedFile {
  stream: Readable;
  size: number;
}

const seg = (s: string) => encodeURIComponent(s);

/** The client for the configured service, or null when none is configured (checks are off). */
export function simcheckClient(settings: Settings): SimcheckClient | null {
  if (!settings.url) return null;
  const base = `${settings.url.replace(/\/+$/, '')}/api/v1`;

  async function send(method: string, path: string, body?: { json: unknown } | { file: StreamedFile; filename: string }): Promise<Response> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${settings.apiKey}`,
      Accept: 'application/json',
      'X-Turnitin-Integration-Name': INTEGRATION_NAME,
      'X-Turnitin-Integration-Version': INTEGRATION_VERSION,
    };
    let payload: string | ReadableStream | undefined;
    if (body && 'json' in body) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body) {
      // A file goes out as it is read, never whole in memory: sized, so no chunked encoding.
      headers['Content-Type'] = 'binary/octet-stream';
      headers['Content-Disposition'] = `inline; filename="${body.filename.replace(/["\\\r\n]/g, '_')}"`;
      headers['Content-Length'] = String(body.file.size);
      payload = Readable.toWeb(body.file.stream) as ReadableStream;
    }
    let res: Response;
    try {
      // fetch sends a stream body only with `duplex: 'half'`.
      const streamed = typeof payload === 'object' ? { duplex: 'half' as const } : {};
      res = await fetch(`${base}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(settings.timeoutMs), ...streamed });
    } catch (error) {
      if (body && 'file' in body) body.file.stream.destroy();
      throw new SimcheckError(0, `Similarity service unreachable: ${(error as Error).message}`);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let message = text;
      try {
        const parsed = JSON.parse(text) as { message?: string; error?: string };
        message = parsed.message ?? parsed.error ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new SimcheckError(res.status, `${method} ${path}: ${res.status} ${message}`.trim());
    }
    return res;
  }

  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await send(method, path, body === undefined ? undefined : { json: body });
    const text = await res.text();
    return (text ? JSON.parse(text) : {}) as T;
  };
  const done = async (method: string, path: string, body?: unknown): Promise<void> => {
    await (await send(method, path, body === undefined ? undefined : { json: body })).arrayBuffer();
  };

  return {
    latestEula: () => json('GET', '/eula/latest'),
    eulaHtml: async (version) => (await send('GET', `/eula/${seg(version)}/view?lang=en-US`)).text(),
    acceptEula: (acceptance) => done('POST', `/eula/${seg(acceptance.version)}/accept`, acceptance),
    createSubmission: (submission) => json('POST', '/submissions', submission),
    uploadSubmissionFile: async (id, filename, file) => {
      await (await send('PUT', `/submissions/${seg(id)}/original`, { file, filename })).arrayBuffer();
    },
    submissionStatus: (id) => json('GET', `/submissions/${seg(id)}`),
    requestSimilarityReport: (id, addToIndex) =>
      done('PUT', `/submissions/${seg(id)}/similarity`, {
        indexing_settings: { add_to_index: addToIndex },
        generation_settings: {
          search_repositories: ['INTERNET', 'SUBMITTED_WORK', 'PUBLICATION'],
          auto_exclude_self_matching_scope: 'GROUP_CONTEXT',
          priority: 'LOW',
        },
      }),
    similarityResult: (id) => json('GET', `/submissions/${seg(id)}/similarity`),
    viewerUrl: async (id, viewerUserId) =>
      (
        await json<{ viewer_url: string }>('POST', `/submissions/${seg(id)}/viewer-url`, {
          viewer_user_id: viewerUserId,
          locale: 'en-US',
          viewer_default_permission_set: 'INSTRUCTOR',
        })
      ).viewer_url,
    requestReportPdf: (id) => json('POST', `/submissions/${seg(id)}/similarity/pdf`, { locale: 'en-US' }),
    reportPdfStatus: async (id, pdfId) => (await json<{ status: string }>('GET', `/submissions/${seg(id)}/similarity/pdf/${seg(pdfId)}/status`)).status,
    downloadReportPdf: async (id, pdfId) => {
      const res = await send('GET', `/submissions/${seg(id)}/similarity/pdf/${seg(pdfId)}`);
      return res.body ? Readable.fromWeb(res.body as WebStream) : Readable.from([]);
    },
    deleteSubmission: (id) => done('DELETE', `/submissions/${seg(id)}`),
    putGroup: (groupId, group) =>
      done('PUT', `/groups/${seg(groupId)}`, { id: groupId, type: 'ASSIGNMENT', report_generation: 'IMMEDIATELY_AND_DUE_DATE', ...group }),
    addGroupAttachment: (groupId, title) => json('POST', `/groups/${seg(groupId)}/attachments`, { title, template: false }),
    uploadGroupAttachment: async (groupId, attachmentId, filename, file) => {
      await (await send('PUT', `/groups/${seg(groupId)}/attachments/${seg(attachmentId)}/original`, { file, filename })).arrayBuffer();
    },
    groupAttachmentStatus: (groupId, attachmentId) => json('GET', `/groups/${seg(groupId)}/attachments/${seg(attachmentId)}`),
    deleteGroupAttachment: (groupId, attachmentId) => done('DELETE', `/groups/${seg(groupId)}/attachments/${seg(attachmentId)}`),
  };
}
