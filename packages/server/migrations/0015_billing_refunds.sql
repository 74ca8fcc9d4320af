-- Refunds and disputes take credit back (issue 23 item 5). Each is a ledger entry whose ref is the
-- provider's object (the refund, the dispute; `<dispute>:won` for a dispute won back), so a
-- replayed event adds nothing; the balance may go negative.
alter table ledger_entries drop constraint ledger_entries_kind_check;
alter table ledger_entries add constraint ledger_entries_kind_check
  check (kind in ('welcome', 'credit', 'usage', 'topup', 'plan_credit', 'auto_recharge', 'refund', 'dispute', 'dispute_won'));

-- A payment's receipt is found again by the provider's payment intent (refund and dispute events
-- name the charge's payment intent, not the checkout session or invoice the credit was keyed on),
-- and keeps what was given back: the cumulative amount refunded (the provider's `amount_refunded`,
-- so a second partial refund writes only the difference) and the credit taken back for it, and
-- the dispute's amount, status and credit taken.
alter table payment_receipts add column payment_intent_id text;
alter table payment_receipts add column refunded_cents int not null default 0;
alter table payment_receipts add column refunded_credit_micro bigint not null default 0;
alter table payment_receipts add column dispute_id text;
alter table payment_receipts add column dispute_status text;
alter table payment_receipts add column disputed_credit_micro bigint not null default 0;
create index payment_receipts_intent on payment_receipts (account_id, payment_intent_id) where payment_intent_id is not null;
