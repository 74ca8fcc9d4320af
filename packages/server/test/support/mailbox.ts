import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server the app delivers to; tests wait for what arrives. */
export class TestMailbox {
  readonly received: ReceivedMail[] = [];
  #waiters: (() => void)[] = [];
  #server: SMTPServer;
  port = 0;

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        // Every mail the app sends has both a text and an HTML part (transport.ts), so the parser's
        // conversions between them (linkifying the text into HTML, rendering HTML as text) only
        // cost CPU: they were a tenth of the mail's cost in a test file's profile.
        simpleParser(stream, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true })
          .then((parsed) => {
            const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
            this.received.push({ to: (to ?? '').toLowerCase(), subject: parsed.subject ?? '', text: parsed.text ?? '', html: String(parsed.html || '') });
            this.#waiters.splice(0).forEach((wake) => wake());
            callback();
          })
          .catch(callback);
      },
    });
  }

  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(port, '127.0.0.1', resolve));
    this.port = (this.#server.server.address() as AddressInfo).port;
  }

  /** Waits for a mail to `to` whose subject matches; returns the newest such mail. */
  async waitFor(to: string, subject: RegExp = /./, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.filter((m) => m.to === to.toLowerCase() && subject.test(m.subject)).at(-1);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** Takes the mails matching out of the box, so a later waitFor sees only newer ones. */
  take(to: string): ReceivedMail[] {
    const taken = this.received.filter((m) => m.to === to.toLowerCase());
    for (const mail of taken) this.received.splice(this.received.indexOf(mail), 1);
    return taken;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** The six-digit code in a code mail. */
export function codeIn(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in mail "${mail.subject}"`);
  return match[1]!;
}

/** The invitation token at the end of the invitation link. */
export function inviteTokenIn(mail: ReceivedMail): string {
  const match = /\/invites\/([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no invitation link in mail "${mail.subject}"`);
  return match[1]!;
}
