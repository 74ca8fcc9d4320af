-- Paid plan invoices join the portal's receipts (issue 13): beside top-ups and automatic top-ups,
-- each paid invoice of a customer's subscription, with what it cost, the plan credit it added
-- (which is not its amount) and the provider's invoice page. The provider mails invoices itself,
-- so these rows are written as mailed.
alter table payment_receipts drop constraint payment_receipts_kind_check;
alter table payment_receipts add constraint payment_receipts_kind_check check (kind in ('topup', 'auto_recharge', 'plan'));
-- The credit the payment added; null: amount_cents × 10,000 (a top-up's credit is its amount).
alter table payment_receipts add column credit_micro bigint;
-- What was bought, for the list (the plan's name when the invoice was paid).
alter table payment_receipts add column description text not null default '';
