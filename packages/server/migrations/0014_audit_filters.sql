-- The audit log is narrowed by actor and by customer (the console's audit page). Each filter gets
-- the order the page index has, so a page of one actor's or one customer's events reads only
-- their rows instead of walking the workspace's whole log past everyone else's. Actions are
-- matched by family (`member` and `member.…`) and stay on the page index.
create index audit_events_actor on audit_events (workspace_id, actor_id, created_at desc, id desc);
create index audit_events_customer on audit_events (workspace_id, customer_id, created_at desc, id desc) where customer_id is not null;
