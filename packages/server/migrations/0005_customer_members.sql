-- People of an API's sign-in service become the members of its customers (the customer portal):
-- a person who signs up gets or joins a customer, and customer owners invite their teammates.
create table customer_members (
  customer_id text not null references customers(id) on delete cascade,
  person_id text not null references people(id) on delete cascade,
  api_id text not null references apis(id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null,
  primary key (customer_id, person_id)
);
create index customer_members_person on customer_members (api_id, person_id);

-- An invitation joins the customer it names, or, naming none, makes the invited person a new
-- customer (the owner's "become a customer"). Its link works once, by the token's hash, until
-- it expires. invited_by is a console user, or a person when a customer invites a teammate.
alter table customer_invites add column customer_id text references customers(id) on delete cascade;
alter table customer_invites add column role text not null default 'owner' check (role in ('owner', 'admin', 'member'));
alter table customer_invites add column token_hash text;
alter table customer_invites add column invited_by_person boolean not null default false;
alter table customer_invites add column expires_at timestamptz;
update customer_invites set expires_at = created_at + interval '7 days';
alter table customer_invites alter column expires_at set not null;
drop index customer_invites_open;
create unique index customer_invites_open on customer_invites (api_id, coalesce(customer_id, ''), email) where accepted_at is null and revoked_at is null;
create unique index customer_invites_token on customer_invites (token_hash);
create index customer_invites_customer on customer_invites (customer_id) where customer_id is not null;

-- A key made in the portal names the person who made it: a member may revoke the keys they made.
alter table customer_keys add column created_by_person text references people(id) on delete set null;
