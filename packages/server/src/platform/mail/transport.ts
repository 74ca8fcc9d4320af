import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes: SMTP in production and tests, the dev outbox (log plus /dev/mail) otherwise. */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * How long a relay may take (nodemailer's own defaults are 2 minutes to connect, 30 s to greet and
 * an hour of silence): a relay that accepts and never answers held a mail, and with it a stop of
 * the process, for that long. A failed attempt is retried by the outbox.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000, dnsTimeout: 10_000 };

export function smtpTransport(url: string, from: string, timeouts: Partial<typeof SMTP_TIMEOUTS> = {}): MailTransport {
  // Built from the class: createTransport() given a `url` drops every other option, timeouts included.
  const transporter = nodemailer.createTransport(new SMTPTransport({ url, ...SMTP_TIMEOUTS, ...timeouts }));
  return {
    async send(message) {
      await transporter.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    },
    close: () => transporter.close(),
  };
}

/**
 * Development without SMTP: the mail stays in the outbox table, shown at /dev/mail, and the log
 * names it. The body is not logged: it holds codes and links that act as secrets.
 */
export function devOutboxTransport(log: (line: string) => void, outboxUrl: string): MailTransport {
  return {
    async send(message) {
      log(`mail to ${message.to}: "${message.subject}" (read it at ${outboxUrl})`);
    },
    close: () => {},
  };
}
