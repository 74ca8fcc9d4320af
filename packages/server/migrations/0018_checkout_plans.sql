-- A plan that goes away closes the checkouts still open for it (issue 23 item 4): a subscription
-- checkout records its plan, and when it was expired at the provider. Checkouts started without a
-- paying person (the payer is who a top-up's receipt goes to) are recorded too, without an e-mail.
alter table payment_checkouts add column plan_id text;
alter table payment_checkouts add column expired_at timestamptz;
alter table payment_checkouts alter column email drop not null;
create index payment_checkouts_open_of_plan on payment_checkouts (api_id, plan_id) where plan_id is not null and expired_at is null;
