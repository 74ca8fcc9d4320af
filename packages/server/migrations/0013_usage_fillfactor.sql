-- Usage ingestion updates a customer's balance, its usage ledger entry of the day and its daily
-- counters on every report. None of those columns is indexed, so PostgreSQL can update the rows in
-- place (HOT: no new index entries) when their page has room; a full page makes every update a new
-- row version in every index of the table. Leave room on each page (new pages from now on).
alter table customers set (fillfactor = 80);
alter table ledger_entries set (fillfactor = 80);
alter table customer_usage_days set (fillfactor = 80);
