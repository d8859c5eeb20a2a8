// POST /api/tii_hook (also /api/simcheck_hook): the similarity service reports progress here.
// Its body is signed (HMAC-SHA256, hex, of the raw bytes with SIMCHECK_WEBHOOK_SECRET, header
// X-Turnitin-Signature), so the route reads the bytes itself rather than through the REST layer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SimcheckAction, SimcheckGroupAttachment, SimcheckSubmission, type ISimcheckAction } from '../../schema/index.ts';
import type { Em } from '../db/orm.ts';
import type { Services } from '../trpc/context.ts';
import { actionRun, perform, type ActionRun } from '../operations/similarity/simcheck-actions.ts';
import { updateFromAttachmentStatus } from '../operations/similarity/simcheck-attachments.ts';
import { updateFromPdfStatus, updateFromSimilarity, updateFromSubmissionStatus } from '../operations/similarity/simcheck-submission.ts';

export const WEBHOOK_PATHS = ['/api/tii_hook', '/api/simcheck_hook'];

/** Is `signature` the hex HMAC-SHA256 of `body` under `secret`? Compared in constant time. */
export function validSignature(body: Buffer, signature: string | undefined, secret: string): boolean {
  if (!signature || !secret) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
  const given = Buffer.from(signature.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type Data = Record<string, unknown>;

async function actionFor(em: Em, kind: string, params: Record<string, number>): Promise<ISimcheckAction | null> {
  const [action] = await em.find(SimcheckAction, { action: kind, params }, { orderBy: { id: 'desc' }, limit: 1 });
  return action ?? null;
}

/** Applies one event; unknown events and unknown documents are ignored (the service may know more than we do). */
export async function applyEvent(run: ActionRun, event: string, data: Data): Promise<void> {
  const em = run.em;
  if (event === 'GROUP_ATTACHMENT_COMPLETE') {
    const attachment = await em.findOne(SimcheckGroupAttachment, { remoteId: String(data.id ?? '') });
    const action = attachment && (await actionFor(em, 'upload_task_resources', { attachmentId: attachment.id }));
    if (attachment && action) await perform(run, action, async (r, a) => updateFromAttachmentStatus(r, a, attachment, data as never));
    return;
  }
  const remoteId = String((event.startsWith('SIMILARITY_') ? data.submission_id : data.id) ?? '');
  const submission = remoteId ? await em.findOne(SimcheckSubmission, { remoteId }) : null;
  const action = submission && (await actionFor(em, 'upload_submission', { submissionId: submission.id }));
  if (!submission || !action) return;
  const doc = submission as never;
  if (event === 'SUBMISSION_COMPLETE') await perform(run, action, (r, a) => updateFromSubmissionStatus(r, a, doc, data as never));
  else if (event === 'SIMILARITY_COMPLETE' || event === 'SIMILARITY_UPDATED')
    await perform(run, action, (r, a) => updateFromSimilarity(r, a, doc, data as never));
  else if (event === 'PDF_STATUS') await perform(run, action, (r, a) => updateFromPdfStatus(r, a, doc, String(data.status ?? '')));
}

const error = (reply: FastifyReply, status: number, message: string) => reply.code(status).type('application/json; charset=utf-8').send({ error: message });

export async function registerSimcheckWebhook(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // The signature covers the exact bytes sent, so every body is kept as it arrived.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    for (const url of WEBHOOK_PATHS) {
      scope.post(url, async (request, reply) => {
        const { config } = services;
        if (!config.simcheckEnabled || !config.simcheck.webhookSecret) return error(reply, 404, 'Similarity checks are not enabled');
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-turnitin-signature'];
        if (!validSignature(body, typeof signature === 'string' ? signature : undefined, config.simcheck.webhookSecret)) {
          return error(reply, 401, 'Signature did not match in webhook request');
        }
        let data: Data;
        try {
          data = JSON.parse(body.toString('utf8')) as Data;
        } catch {
          return error(reply, 400, 'The webhook body is not JSON');
        }
        if (!data || typeof data !== 'object' || Array.isArray(data)) return error(reply, 400, 'The webhook body is not a JSON object');
        const event = String(request.headers['x-turnitin-eventtype'] ?? '');
        const em = services.orm.em.fork();
        const run = actionRun(em, services);
        if (run) await applyEvent(run, event, data);
        return reply.code(201).type('application/json; charset=utf-8').send('true');
      });
    }
  });
}
