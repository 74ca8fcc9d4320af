-- SDK journals from before 2.5 keep their old, not necessarily UUID, idempotency keys
-- (sdk-wire-protocol.md section 4): receipts key on text so that usage is not lost.
alter table usage_receipts alter column idempotency_key type text using idempotency_key::text;
