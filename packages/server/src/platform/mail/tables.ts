import type { Generated } from 'kysely';

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: Generated<number>;
  next_attempt_at: Date;
  sent_at: Date | null;
  last_error: string | null;
  created_at: Date;
}

export interface MailTables {
  mail_outbox: MailOutboxTable;
}
