-- SDK change sequence, cheaper on the hot path (issue 27; docs/decisions.md, "SDK change sequence
-- (issue 27)", "Recording by statement"). Replaces the recording of 0019, keeping its tables, its
-- numbers and every guarantee (numbers taken at commit, in commit order per API).
--
-- 0019 called a plpgsql function per changed row, which upserted the object's row in sdk_changes
-- with seq null and numbered it again at commit: a usage report moving 1,000 balances paid 1,000
-- function calls and wrote 1,000 sdk_changes rows twice (with their index entries and WAL). Now:
-- - customers (the hot table: every report moves balances) are recorded by statement-level
--   triggers reading the statement's transition tables: one call and one INSERT ... SELECT per
--   statement, whatever the number of rows;
-- - a change waits for its number in sdk_change_waiting, unlogged and without index (rows live
--   from the write to the commit of their own transaction, and a crash ends that transaction), and
--   sdk_changes is written once per object, numbered, at commit;
-- - whether a key or customer is removed (a tombstone) is read at commit from the row itself, so
--   the waiting rows need no order: several changes of one object in a transaction are one change.

drop trigger sdk_change_customer_insert on customers;
drop trigger sdk_change_customer_update on customers;
drop trigger sdk_change_customer_delete on customers;
drop trigger sdk_change_key_insert on customer_keys;
drop trigger sdk_change_key_update on customer_keys;
drop trigger sdk_change_key_delete on customer_keys;
drop trigger sdk_change_api_update on apis;
drop trigger sdk_change_commits_number on sdk_change_commits;
drop function sdk_change_customer();
drop function sdk_change_key();
drop function sdk_change_api();
drop function sdk_change_record(text, text, text, boolean);
drop function sdk_change_number();
drop table sdk_change_commits;

-- Objects changed by open transactions, each visible only to its own transaction until its commit,
-- which deletes them as it numbers them. Several rows of one object are allowed (one change).
create unlogged table sdk_change_waiting (
  api_id text not null,
  kind text not null,
  object_id text not null
);

-- One row per transaction with waiting changes: its deferred constraint trigger numbers them at
-- COMMIT. Deleted there too.
create unlogged table sdk_change_pending (transaction_mark boolean not null default true);

-- The first change of a transaction leaves the row that numbers its changes at commit. A
-- transaction-local setting remembers it (rolled back with a savepoint, as the row is), so later
-- changes need no query; the numbering clears it.
create function sdk_change_mark() returns void
language plpgsql as $$
begin
  if current_setting('gatehouse.sdk_change_pending', true) is distinct from 'yes' then
    perform set_config('gatehouse.sdk_change_pending', 'yes', true);
    insert into sdk_change_pending default values;
  end if;
end $$;

-- Numbers the changes one API's waiting rows name, at commit (see sdk_change_number). Under the
-- counter row's lock, taken here and held to the end of the commit, so per API the numbers follow
-- the order of commits, and a reader that sees number N also sees every number below it.
create function sdk_change_number_api(p_api text) returns void
language plpgsql as $$
declare
  gone_customers text[];
begin
  -- The API was deleted (in this transaction, or by one committed meanwhile): nothing to follow.
  perform 1 from apis where id = p_api;
  if not found then
    delete from sdk_change_waiting where api_id = p_api;
    delete from sdk_changes where api_id = p_api;
    delete from sdk_change_counters where api_id = p_api;
    return;
  end if;
  -- Set-based throughout, and no join the planner could turn into a nested loop over two sets it
  -- has no statistics of (a CTE, a waiting table never analyzed with rows in it): a first version
  -- joined the waiting objects to themselves and the written rows to sdk_changes, and a commit of
  -- 1,000 balances took seconds.
  with gone as (
    delete from sdk_change_waiting where api_id = p_api returning kind, object_id
  ), objects as (
    -- A customer sent whole (a new one and its welcome credit) carries its balance: a balance
    -- change beside it would only take a place in a page.
    select kind, object_id from (
      select kind, object_id, bool_or(kind = 'customer') over (partition by object_id) as whole
      from (select distinct kind, object_id from gone) d
    ) o
    where kind <> 'balance' or not whole
  ), states as (
    -- Removed: as the row is at commit.
    select o.kind, o.object_id,
      case o.kind
        when 'customer' then not exists (select 1 from customers c where c.id = o.object_id and c.api_id = p_api and c.archived_at is null)
        when 'key' then not exists (select 1 from customer_keys k where k.id = o.object_id::uuid and k.api_id = p_api and k.revoked_at is null)
        else false
      end as removed
    from objects o
  ), numbered as (
    select kind, object_id, removed, row_number() over (order by kind, object_id) as n, count(*) over () as total from states
  ), counter as (
    -- Moved once per transaction (once per change would make a transaction of many changes
    -- quadratic, each update walking the versions the ones before it left).
    insert into sdk_change_counters as c (api_id, seq) select p_api, count(*) from states having count(*) > 0
    on conflict (api_id) do update set seq = c.seq + excluded.seq
    returning c.seq as top
  ), written as (
    insert into sdk_changes as s (api_id, kind, object_id, seq, removed, changed_at)
    select p_api, w.kind, w.object_id, counter.top - w.total + w.n, w.removed, now() from numbered w cross join counter
    on conflict (api_id, kind, object_id) do update set seq = excluded.seq, removed = excluded.removed, changed_at = excluded.changed_at
    returning s.kind, s.object_id, s.removed
  )
  select array_agg(object_id) into gone_customers from written where kind = 'customer' and removed;
  -- A removed customer's balance is gone with it (its row would never be pruned otherwise).
  if gone_customers is not null then
    delete from sdk_changes where api_id = p_api and kind = 'balance' and object_id = any(gone_customers);
  end if;
  -- Wakes SDKs waiting on this API's changes, on every node, when (and only if) this commits:
  -- the change feed's channel (platform/db/change-feed.ts; sdk-sync/waiters.ts).
  perform pg_notify('gatehouse_changes', 'sdk-changes:' || p_api);
end $$;

-- At commit, once per transaction: numbers each API's changes, APIs in id order (two transactions
-- changing the same two APIs take their counters in one order, so they cannot deadlock here).
-- Rows of other open transactions are invisible here: only this transaction's are numbered.
create function sdk_change_number() returns trigger
language plpgsql as $$
declare
  api text;
begin
  delete from sdk_change_pending;
  for api in select distinct api_id from sdk_change_waiting order by 1 loop
    perform sdk_change_number_api(api);
  end loop;
  perform set_config('gatehouse.sdk_change_pending', '', true);
  return null;
end $$;

create constraint trigger sdk_change_pending_number after insert on sdk_change_pending
  deferrable initially deferred
  for each row execute function sdk_change_number();

-- Customers, by statement. A new one; a change of status, policy (price and limits, plan) or token
-- key id; a balance move; archival or deletion (a tombstone, read at commit).
create function sdk_change_customers_inserted() returns trigger
language plpgsql as $$
begin
  insert into sdk_change_waiting (api_id, kind, object_id)
    select api_id, 'customer', id from new_rows where archived_at is null;
  if found then perform sdk_change_mark(); end if;
  return null;
end $$;

-- Called for every UPDATE statement on customers (a statement trigger has no WHEN on rows); the
-- rows whose changes SDKs do not see (last_used_at, notes…) are left out by the join's filter.
create function sdk_change_customers_updated() returns trigger
language plpgsql as $$
begin
  insert into sdk_change_waiting (api_id, kind, object_id)
    select n.api_id,
      case when n.archived_at is not null or o.archived_at is not null or n.status is distinct from o.status
          or n.usage_policy_id is distinct from o.usage_policy_id or n.token_key_id is distinct from o.token_key_id
        then 'customer' else 'balance' end,
      n.id
    from new_rows n join old_rows o on o.id = n.id
    where (n.status is distinct from o.status or n.usage_policy_id is distinct from o.usage_policy_id
        or n.token_key_id is distinct from o.token_key_id or n.archived_at is distinct from o.archived_at
        or n.balance_micro is distinct from o.balance_micro or n.balance_seq is distinct from o.balance_seq)
      -- Archived before and after: gone for SDKs already.
      and (n.archived_at is null or o.archived_at is null);
  if found then perform sdk_change_mark(); end if;
  return null;
end $$;

create function sdk_change_customers_deleted() returns trigger
language plpgsql as $$
begin
  insert into sdk_change_waiting (api_id, kind, object_id) select api_id, 'customer', id from old_rows;
  if found then perform sdk_change_mark(); end if;
  return null;
end $$;

create trigger sdk_change_customers_insert after insert on customers
  referencing new table as new_rows for each statement execute function sdk_change_customers_inserted();
create trigger sdk_change_customers_update after update on customers
  referencing old table as old_rows new table as new_rows for each statement execute function sdk_change_customers_updated();
create trigger sdk_change_customers_delete after delete on customers
  referencing old table as old_rows for each statement execute function sdk_change_customers_deleted();

-- Keys: added, revoked or deleted (a tombstone, read at commit). Inserts and deletes by statement;
-- updates stay row triggers with a WHEN: every usage report updates its keys' last_used_at, and a
-- statement trigger would be called (and its transition tables kept) for each of those.
create function sdk_change_keys_inserted() returns trigger
language plpgsql as $$
begin
  insert into sdk_change_waiting (api_id, kind, object_id) select api_id, 'key', id::text from new_rows where revoked_at is null;
  if found then perform sdk_change_mark(); end if;
  return null;
end $$;

create function sdk_change_keys_deleted() returns trigger
language plpgsql as $$
begin
  insert into sdk_change_waiting (api_id, kind, object_id) select api_id, 'key', id::text from old_rows;
  if found then perform sdk_change_mark(); end if;
  return null;
end $$;

create function sdk_change_key_revoked() returns trigger
language plpgsql as $$
begin
  insert into sdk_change_waiting (api_id, kind, object_id) values (new.api_id, 'key', new.id::text);
  perform sdk_change_mark();
  return null;
end $$;

create trigger sdk_change_keys_insert after insert on customer_keys
  referencing new table as new_rows for each statement execute function sdk_change_keys_inserted();
create trigger sdk_change_keys_delete after delete on customer_keys
  referencing old table as old_rows for each statement execute function sdk_change_keys_deleted();
create trigger sdk_change_key_update after update on customer_keys
  for each row when (new.revoked_at is distinct from old.revoked_at)
  execute function sdk_change_key_revoked();

-- The API's own terms every answer carries at its top: a change of them moves the sequence, so a
-- following SDK is woken and reads them.
create function sdk_change_api_changed() returns trigger
language plpgsql as $$
begin
  insert into sdk_change_waiting (api_id, kind, object_id) values (new.id, 'api', new.id);
  perform sdk_change_mark();
  return null;
end $$;

create trigger sdk_change_api_update after update on apis
  for each row when (
    new.status is distinct from old.status or new.billable_status_codes is distinct from old.billable_status_codes
    or new.name is distinct from old.name or new.platform_plan is distinct from old.platform_plan)
  execute function sdk_change_api_changed();
