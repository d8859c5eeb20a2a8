import type { Task } from 'graphile-worker';
import { composeMail } from '../../src/operations/mail/compose-mail.ts';
import { mailPayload } from '../../src/mail/payload.ts';
import { isPermanentMailError } from '../../src/adapters/mailer.ts';
import type { WorkerServices } from '../services.ts';

/**
 * Sends one notification e-mail. The content, the recipient's preference and the unit's
 * send_notifications are read now, so an opted-out user gets nothing even if the mail was queued
 * earlier. Without SMTP_URL the job completes unsent (the mailer says so once). A connection
 * failure or a temporary refusal (4xx) is retried with backoff; a permanent refusal (5xx) is
 * logged and the job completes, since asking again would get the same answer.
 */
export function sendEmailTask(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    const mail = mailPayload.parse(rawPayload);
    const settings = { product: services.config.externalName, webUrl: services.config.mail.webUrl ?? null };
    const composed = await composeMail(services.orm.em.fork(), mail, settings);
    if (!composed.send) {
      helpers.logger.info(`${mail.kind} not sent: ${composed.why}`);
      return;
    }
    const { to, replyTo, onBehalfOf, content } = composed;
    try {
      await services.mailer.send({
        to,
        replyTo: replyTo ?? undefined,
        fromName: onBehalfOf ? `${onBehalfOf} via ${services.config.externalName}` : undefined,
        subject: content.subject,
        text: content.text,
      });
    } catch (error) {
      if (!isPermanentMailError(error)) throw error;
      helpers.logger.error(`the mail server refused ${mail.kind} to ${to.address}: ${(error as Error).message}`);
    }
  };
}
