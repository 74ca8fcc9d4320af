import type { Clock } from '../clock.js';
import { addMs, MINUTE, SECOND } from '../clock.js';
import type { Db, Trx } from '../db/database.js';
import { newId } from '../ids.js';
import type { Metrics } from '../metrics.js';
import { claimDueMails, insertMail, markMailFailed, markMailSent } from './queries.js';
import type { MailMessage, MailTransport } from './transport.js';

const BATCH = 20;
const LEASE_MS = 2 * MINUTE;
const SWEEP_MS = 5 * SECOND;

/** Retry delay after the n-th failed attempt: 10 s, 20 s, 40 s … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(10 * SECOND * 2 ** Math.max(0, attempts - 1), 60 * MINUTE);
}

/**
 * The mail outbox: a mail is written in the same transaction as the change that caused it,
 * then delivered after commit and retried until the transport takes it.
 */
export class MailOutbox {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #sending: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transport: MailTransport,
    private readonly metrics: Metrics,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues a mail inside the caller's transaction. Call `kick()` after the commit. */
  async enqueue(trx: Trx, message: MailMessage): Promise<void> {
    await insertMail(trx, { id: newId('mail'), message, now: this.clock.now() });
  }

  /** Starts a delivery pass now (coalesced with one already running). */
  kick(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.deliverDue()
      .then(() => undefined)
      .catch(this.onError)
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** One delivery pass over every due mail; returns how many were sent. */
  async deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = this.clock.now();
      const batch = await claimDueMails(this.db, now, addMs(now, LEASE_MS), BATCH);
      for (const mail of batch) {
        try {
          this.#sending = mail.id;
          await this.transport.send({ to: mail.to_address, subject: mail.subject, text: mail.text_body, html: mail.html_body }).finally(() => (this.#sending = null));
          await markMailSent(this.db, mail.id, this.clock.now());
          this.metrics.mailSent.inc();
          sent++;
        } catch (error) {
          this.metrics.mailFailed.inc();
          await markMailFailed(this.db, mail.id, String((error as Error).message), addMs(this.clock.now(), retryDelayMs(mail.attempts)));
        }
      }
      if (batch.length < BATCH) return sent;
    }
  }

  start(): void {
    this.#timer = setInterval(() => this.kick(), SWEEP_MS);
    this.#timer.unref();
    this.kick();
  }

  /** What a stop would wait for: the mail being handed to the transport, by id (never its address). */
  inFlight(): string[] {
    return this.#sending ? [`sending mail ${this.#sending}`] : this.#running ? ['a delivery pass'] : [];
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
    this.transport.close();
  }
}
