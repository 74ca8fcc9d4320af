-- MCP 2026-07-28 (issue 26): an owner may stop advertising client ID metadata documents in
-- discovery (`client_id_metadata_document_supported`) while still accepting them, so clients that
-- fail on that path fall back to registration. Off by default: documents stay advertised.
alter table signin_settings add column metadata_documents_unadvertised boolean not null default false;
