-- SDK change sequence (issue 27; docs/decisions.md, "SDK change sequence (issue 27)").
--
-- What an SDK sees of an API (its customers, their balances, their keys, the API's own terms) is
-- followed by triggers on the tables the snapshot reads, so no write path can forget to record a
-- change. Each object has one row here, holding the sequence number of its latest change: a reader
-- at cursor N gets every object whose row is above N, with its state read in the same snapshot.
--
-- Numbers are taken at COMMIT, not at the write: the row triggers leave the row's seq null, and a
-- deferred constraint trigger numbers it from the API's counter row when the transaction commits.
-- The counter row stays locked from there to the end of the commit, so per API the numbers follow
-- the order of commits, and a reader that sees number N also sees every number below it.

create table sdk_change_counters (
  api_id text primary key,
  -- The API's latest change number: what a snapshot hands out as its sync_cursor.
  seq bigint not null default 0,
  -- The highest number of a tombstone the retention job removed: a cursor below it may have missed
  -- a removal, so it is answered 410 (re-read the snapshot).
  pruned_seq bigint not null default 0
);

-- No foreign keys: rows are written by triggers while an API or a customer is being deleted, in the
-- middle of its cascade; the API's rows are removed by the numbering trigger instead (below).
create table sdk_changes (
  api_id text not null,
  kind text not null check (kind in ('api', 'customer', 'key', 'balance')),
  object_id text not null,
  -- Null while the writing transaction is open (invisible to every other), numbered at its commit.
  seq bigint,
  -- A tombstone: the customer (archived or deleted) or the key (revoked or deleted) is gone.
  removed boolean not null default false,
  changed_at timestamptz not null default now(),
  primary key (api_id, kind, object_id)
);
create index sdk_changes_seq on sdk_changes (api_id, seq);
create index sdk_changes_tombstones on sdk_changes (changed_at) where removed;

-- One row per transaction and API with changes: its deferred trigger numbers them at commit. Rows
-- live from the first change of the transaction to its commit, and are deleted there.
create table sdk_change_commits (api_id text not null);

-- Marks an object changed in this transaction (numbered at commit). A row already waiting for its
-- number in this transaction is left alone: the hot path (a usage report moving a balance) writes
-- it once per transaction however many times the balance moves. The first change of an API in a
-- transaction also leaves the row that numbers them at commit; a transaction-local setting
-- remembers it (rolled back with a savepoint, as the row is), so later changes need no query.
create function sdk_change_record(p_api text, p_kind text, p_object text, p_removed boolean) returns void
language plpgsql as $$
declare
  marked text := coalesce(current_setting('gatehouse.sdk_change_apis', true), '');
begin
  insert into sdk_changes as s (api_id, kind, object_id, seq, removed, changed_at)
  values (p_api, p_kind, p_object, null, p_removed, now())
  on conflict (api_id, kind, object_id) do update set seq = null, removed = excluded.removed, changed_at = excluded.changed_at
    where s.seq is not null or s.removed <> excluded.removed;
  if position(' ' || p_api || ' ' in marked) = 0 then
    perform set_config('gatehouse.sdk_change_apis', marked || ' ' || p_api || ' ', true);
    insert into sdk_change_commits (api_id) values (p_api);
  end if;
end $$;

-- At commit, once per transaction and API: numbers every row the transaction left waiting, and moves
-- the counter once (updating one counter row once per change would make a transaction of many
-- changes quadratic, each update walking the versions the ones before it left).
-- The counter row is locked until the commit ends, so the next transaction of the API numbers its
-- changes only after this one is visible to everyone. Rows of other open transactions are invisible
-- here, and rows they changed are seen as committed (numbered): only this transaction's are numbered.
create function sdk_change_number() returns trigger
language plpgsql as $$
declare
  waiting bigint;
  top bigint;
begin
  delete from sdk_change_commits where api_id = new.api_id;
  -- The API was deleted (in this transaction, or by one committed meanwhile): nothing to follow.
  perform 1 from apis where id = new.api_id;
  if not found then
    delete from sdk_changes where api_id = new.api_id;
    delete from sdk_change_counters where api_id = new.api_id;
    return null;
  end if;
  select count(*) into waiting from sdk_changes where api_id = new.api_id and seq is null;
  if waiting = 0 then
    return null;
  end if;
  insert into sdk_change_counters as c (api_id, seq) values (new.api_id, waiting)
    on conflict (api_id) do update set seq = c.seq + waiting
    returning c.seq into top;
  -- Joined by the key only: with "s.seq is null" as well, the planner (whose statistics never see a
  -- waiting row: all are numbered when ANALYZE looks) scanned every waiting row for each of them,
  -- and a thousand took seconds.
  update sdk_changes s set seq = top - waiting + w.n, changed_at = now()
    from (select kind, object_id, row_number() over (order by kind, object_id) as n
          from sdk_changes where api_id = new.api_id and seq is null) w
    where s.api_id = new.api_id and s.kind = w.kind and s.object_id = w.object_id;
  return null;
end $$;

create constraint trigger sdk_change_commits_number after insert on sdk_change_commits
  deferrable initially deferred
  for each row execute function sdk_change_number();

-- Customers: a new one, a change of status, policy (price and limits, plan) or token key id, a
-- balance move, and removal (archived or deleted) leaving a tombstone. A change of the whole record
-- carries the balance too, so it needs no balance change beside it.
create function sdk_change_customer() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform sdk_change_record(old.api_id, 'customer', old.id, true);
    delete from sdk_changes where api_id = old.api_id and kind = 'balance' and object_id = old.id;
  elsif tg_op = 'INSERT' then
    if new.archived_at is null then
      perform sdk_change_record(new.api_id, 'customer', new.id, false);
    end if;
  elsif new.archived_at is not null then
    if old.archived_at is null then
      perform sdk_change_record(new.api_id, 'customer', new.id, true);
      delete from sdk_changes where api_id = new.api_id and kind = 'balance' and object_id = new.id;
    end if;
  elsif old.archived_at is not null or new.status is distinct from old.status
      or new.usage_policy_id is distinct from old.usage_policy_id or new.token_key_id is distinct from old.token_key_id then
    perform sdk_change_record(new.api_id, 'customer', new.id, false);
  else
    -- A customer sent whole in this transaction (a new one and its welcome credit) carries its
    -- balance: a balance change beside it would only take a place in a page.
    perform 1 from sdk_changes where api_id = new.api_id and kind = 'customer' and object_id = new.id and seq is null;
    if not found then
      perform sdk_change_record(new.api_id, 'balance', new.id, false);
    end if;
  end if;
  return null;
end $$;

create trigger sdk_change_customer_insert after insert on customers
  for each row execute function sdk_change_customer();
-- Only updates of what SDKs see call the function at all (last_used_at, notes… do not).
create trigger sdk_change_customer_update after update on customers
  for each row when (
    new.status is distinct from old.status or new.usage_policy_id is distinct from old.usage_policy_id
    or new.token_key_id is distinct from old.token_key_id or new.archived_at is distinct from old.archived_at
    or new.balance_micro is distinct from old.balance_micro or new.balance_seq is distinct from old.balance_seq)
  execute function sdk_change_customer();
create trigger sdk_change_customer_delete after delete on customers
  for each row execute function sdk_change_customer();

-- Keys: added, revoked (or deleted, with their customer) leaving a tombstone.
create function sdk_change_key() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform sdk_change_record(old.api_id, 'key', old.id::text, true);
  elsif tg_op = 'INSERT' then
    if new.revoked_at is null then
      perform sdk_change_record(new.api_id, 'key', new.id::text, false);
    end if;
  else
    perform sdk_change_record(new.api_id, 'key', new.id::text, new.revoked_at is not null);
  end if;
  return null;
end $$;

create trigger sdk_change_key_insert after insert on customer_keys
  for each row execute function sdk_change_key();
create trigger sdk_change_key_update after update on customer_keys
  for each row when (new.revoked_at is distinct from old.revoked_at)
  execute function sdk_change_key();
create trigger sdk_change_key_delete after delete on customer_keys
  for each row execute function sdk_change_key();

-- The API's own terms every answer carries at its top (status, billable codes, name, platform plan):
-- a change of them moves the sequence, so a following SDK is woken and reads them.
create function sdk_change_api() returns trigger
language plpgsql as $$
begin
  perform sdk_change_record(new.id, 'api', new.id, false);
  return null;
end $$;

create trigger sdk_change_api_update after update on apis
  for each row when (
    new.status is distinct from old.status or new.billable_status_codes is distinct from old.billable_status_codes
    or new.name is distinct from old.name or new.platform_plan is distinct from old.platform_plan)
  execute function sdk_change_api();
