-- Custom domains (issue 17; spec 2.1 DomainInBody and DomainOut, spec 3 domain states): an API's
-- sign-in service and portal at an address its owner holds, one domain per API. No row is the
-- state `none`. docs/decisions.md "Custom domains" gives the transitions.
create table custom_domains (
  api_id text primary key references apis(id) on delete cascade,
  -- Lower case, ASCII (an internationalized name is stored as its xn-- form), no trailing dot.
  domain text not null check (length(domain) between 1 and 253),
  status text not null check (status in ('pending', 'verified', 'active', 'failed')),
  -- The value the TXT record at _gatehouse.<domain> must hold: proof the owner controls the name.
  txt_value text not null,
  -- Which record is missing or wrong, as of the last check; null when it found nothing wrong.
  error text,
  checked_at timestamptz,
  -- Start of the 72 hours a pending domain is checked for (set, or set again after failing).
  pending_since timestamptz not null,
  -- Checks of this pending period, for the backoff.
  attempts int not null default 0,
  -- When the re-check job takes it next; null leaves it alone (failed).
  next_check_at timestamptz,
  -- An active domain's first failing check: its grace runs from here.
  failing_since timestamptz,
  -- Raised by every change: a check's result is written only over the row it read.
  version int not null default 1,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
-- Many APIs may claim a name while pending (whoever proves it wins: a claim alone must not let
-- anyone hold someone else's name); once proven, the name is one API's.
create unique index custom_domains_proven on custom_domains (domain) where status in ('verified', 'active');
create index custom_domains_domain on custom_domains (domain);
create index custom_domains_due on custom_domains (next_check_at) where next_check_at is not null;

-- The issuer a grant was signed in at (the slug address or the custom domain): its code and
-- refresh tokens are spent only there, as its access tokens are accepted only there. Null for
-- grants made before this column, all of them at the slug address.
alter table token_grants add column issuer text;
