-- A customer's usage per UTC day, for the portal's usage page (the last 30 days as a chart and a
-- table). Kept by usage ingestion beside customer_usage_months and api_usage_days, in the same
-- transaction, with the same rules: every item counts in requests; billable ones (a status of its
-- usage policy's billable_status_codes) in billable; statuses of 500 and above in errors; the
-- charge of billable items of real customers in charged_micro. Counters saturate at ±(2^53-1).
create table customer_usage_days (
  customer_id text not null references customers(id) on delete cascade,
  api_id text not null,
  day date not null,
  requests bigint not null default 0,
  billable bigint not null default 0,
  errors bigint not null default 0,
  charged_micro bigint not null default 0,
  primary key (customer_id, day)
);

-- What happened before this table existed. The ledger's usage entries (one per customer and day,
-- for all time) hold the requests and the charge exactly; the receipts (kept at least 46 days)
-- name each item's status, so the days they still cover get billable and errors too. An item
-- reported without a usage policy is judged by the customer's current policy, as the service
-- judged it when it arrived unless the customer's terms changed since.
insert into customer_usage_days (customer_id, api_id, day, requests, charged_micro)
select customer_id, api_id, usage_day, requests, -amount_micro
from ledger_entries
where kind = 'usage' and usage_day is not null;

with counted as (
  select k.customer_id,
         (r.period_start at time zone 'UTC')::date as day,
         coalesce(sum(r.count) filter (where r.status_code = any(p.billable_status_codes)), 0) as billable,
         coalesce(sum(r.count) filter (where r.status_code >= 500), 0) as errors
  from usage_receipts r
  join customer_keys k on k.id = r.api_key_id and k.api_id = r.api_id
  join customers c on c.id = k.customer_id
  left join usage_policies p on p.id = coalesce(r.usage_policy_id, c.usage_policy_id)
  group by k.customer_id, (r.period_start at time zone 'UTC')::date
)
update customer_usage_days d
set billable = least(counted.billable, d.requests),
    errors = least(counted.errors, d.requests)
from counted
where d.customer_id = counted.customer_id and d.day = counted.day;
