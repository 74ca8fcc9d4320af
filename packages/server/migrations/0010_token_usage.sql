-- Requests a customer's people make with access tokens (an MCP server behind sign-in) carry no API
-- key, yet usage items name one (`api_key_id`, wire protocol section 4). Each customer gets one id
-- for them, which the full snapshot shape hands to our SDK and usage ingestion resolves to the
-- customer. A volatile default is evaluated per row, so customers already here get their own.
alter table customers add column token_key_id uuid not null default gen_random_uuid();
create unique index customers_token_key_id on customers (api_id, token_key_id);
