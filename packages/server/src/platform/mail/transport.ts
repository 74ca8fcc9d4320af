import nodemailer from 'nodemailer';

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

export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
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
