-- An API has at most one live platform subscription (issue 23 item 1): a row per provider
-- subscription, with its status and plan, and a partial unique index over the live ones, so an
-- upgrade changes the one subscription and a second can never be recorded as live beside it.
alter table platform_subscriptions add column status text;
alter table platform_subscriptions add column plan_code text;
-- The owner was mailed that the grace of a past-due plan is about to end (once per dip).
alter table platform_subscriptions add column grace_warned_at timestamptz;
delete from platform_subscriptions where subscription_id is null;
-- What was known: the API's plan state stands for its one subscription.
update platform_subscriptions p
  set status = case when a.platform_plan = 'free' then 'canceled' when a.plan_status = 'past_due' then 'past_due' else 'active' end,
      plan_code = a.platform_plan
  from apis a where a.id = p.api_id;
update platform_subscriptions set status = 'canceled' where status is null;
alter table platform_subscriptions drop constraint platform_subscriptions_pkey;
alter table platform_subscriptions alter column subscription_id set not null;
alter table platform_subscriptions alter column status set not null;
alter table platform_subscriptions add primary key (subscription_id);
create index platform_subscriptions_api on platform_subscriptions (api_id, updated_at desc);
create unique index platform_subscriptions_live on platform_subscriptions (api_id) where status in ('trialing', 'active', 'past_due');
