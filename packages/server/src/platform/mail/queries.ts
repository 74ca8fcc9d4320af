import { sql } from 'kysely';
import type { Db, Trx } from '../db/database.js';
import type { MailMessage } from './transport.js';

export async function insertMail(trx: Db | Trx, row: { id: string; message: MailMessage; now: Date }) {
  await trx
    .insertInto('mail_outbox')
    .values({
      id: row.id,
      to_address: row.message.to,
      subject: row.message.subject,
      text_body: row.message.text,
      html_body: row.message.html,
      next_attempt_at: row.now,
      created_at: row.now,
    })
    .execute();
}

/**
 * Claims due mails for one delivery attempt by pushing their next attempt into the future
 * (a lease): another node skips them, and a crash mid-send only delays them.
 */
export async function claimDueMails(db: Db, now: Date, leaseUntil: Date, limit: number) {
  return db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: leaseUntil, attempts: sql`attempts + 1` })
    .where(
      'id',
      'in',
      db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

export async function markMailSent(db: Db, id: string, at: Date) {
  await db.updateTable('mail_outbox').set({ sent_at: at, last_error: null }).where('id', '=', id).execute();
}

export async function markMailFailed(db: Db, id: string, error: string, retryAt: Date) {
  await db.updateTable('mail_outbox').set({ last_error: error.slice(0, 500), next_attempt_at: retryAt }).where('id', '=', id).execute();
}

export async function recentMails(db: Db, limit: number) {
  return db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
