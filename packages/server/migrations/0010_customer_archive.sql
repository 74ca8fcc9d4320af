-- Removing a customer (issue 16): one with nothing on record but its creation is deleted; one with
-- money, usage or keys on record is archived instead (docs/decisions.md): hidden from the console's
-- lists and the portal, out of the SDK snapshot, its keys revoked, its ledger and usage kept.
alter table customers add column archived_at timestamptz;
