-- Apps people connect (issue 14, spec 4.3): apps that registered themselves (RFC 7591) and apps
-- identified by a client ID metadata document, whose client_id is the document's https URL.
--
-- A metadata document's URL is its client_id at every API that meets it, so an app's id is unique
-- per API rather than across the service: the key becomes (api_id, id), and the grants and
-- consents that name an app name it with their API.
alter table consents drop constraint consents_client_id_fkey;
alter table token_grants drop constraint token_grants_client_id_fkey;
alter table oauth_apps drop constraint oauth_apps_pkey;
alter table oauth_apps add constraint oauth_apps_pkey primary key (api_id, id);
alter table consents add constraint consents_app_fkey foreign key (api_id, client_id) references oauth_apps (api_id, id) on delete cascade;
alter table token_grants add constraint token_grants_app_fkey foreign key (api_id, client_id) references oauth_apps (api_id, id) on delete cascade;
-- Who connected an app (the console's count, the replacement rule) and the deletes that cascade
-- from an app read these by app.
create index consents_app on consents (api_id, client_id);
create index token_grants_app on token_grants (api_id, client_id);

-- A metadata document app's copy of its document is good until this time (its HTTP cache headers,
-- held between 5 minutes and 24 hours; now for no-store and no-cache). Null for every other app.
alter table oauth_apps add column metadata_expires_at timestamptz;
-- The cap of 1000 registered apps per API counts them; the cleanup job looks for unused ones.
create index oauth_apps_connected on oauth_apps (api_id, origin) where origin in ('registered', 'metadata');
