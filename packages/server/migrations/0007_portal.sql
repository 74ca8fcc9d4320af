-- The customer portal signs its visitors in through its own API's issuer, as a first-party client
-- of origin 'portal': one per API, never listed among the owner's apps, never asking consent.
alter table oauth_apps drop constraint oauth_apps_origin_check;
alter table oauth_apps add constraint oauth_apps_origin_check check (origin in ('owner', 'registered', 'metadata', 'portal'));
create unique index oauth_apps_portal on oauth_apps (api_id) where origin = 'portal';
