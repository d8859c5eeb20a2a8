import nodemailer from 'nodemailer';
import type { Logger } from '../lib/logger.ts';

export interface Address {
  name: string;
  address: string;
}

export interface OutgoingMail {
  to: Address;
  /** Shown as the sender's name; the address is always the configured MAIL_FROM's. */
  fromName?: string;
  /** Replies go to the person the mail speaks for (a tutor or convenor), not to the no-reply sender. */
  replyTo?: Address;
  subject: string;
  text: string;
}

/** The part of an SMTP client the mail jobs use. */
export interface Mailer {
  /** False when no SMTP server is configured: jobs then complete without sending. */
  readonly enabled: boolean;
  /** Resolves once the server accepted the message; rejects with the server's or the connection's error. */
  send(mail: OutgoingMail): Promise<void>;
}

/** A refusal the server will repeat however often we ask (5xx): retrying only delays the log line. */
export function isPermanentMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500;
}

/**
 * Sends through the SMTP server at `smtpUrl` (smtp://, smtps://, with credentials and nodemailer's
 * query options such as ?ignoreTLS=true). Without a URL nothing is sent, and that is said once
 * (to `logger`, when given).
 */
export function smtpMailer(smtpUrl: string | undefined, from: string, logger?: Logger): Mailer {
  if (!smtpUrl) {
    let told = false;
    return {
      enabled: false,
      async send() {
        if (told) return;
        told = true;
        logger?.warn({ component: 'mail' }, 'SMTP_URL is not set: notification e-mails are not sent');
      },
    };
  }
  // A server that accepts the connection and never answers must not hold a worker slot for long.
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
  const address = fromAddress(from);
  return {
    enabled: true,
    async send(mail) {
      await transport.sendMail({
        from: mail.fromName && address ? { name: mail.fromName, address } : from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
      });
    },
  };
}

/** The bare address of MAIL_FROM ("Name" <a@b> or a@b). */
function fromAddress(from: string): string | undefined {
  const match = /<([^>]+)>\s*$/.exec(from);
  return match ? match[1].trim() : from.includes('@') ? from.trim() : undefined;
}
