-- Signed upload URLs work once. The storage server of a hosted project keeps no such record (a
-- reused URL there is refused only when the object exists and the URL has no upsert); this
-- server keeps the id of every used URL token until the token expires.
create table storage.used_upload_tokens (
  id uuid primary key,
  expires_at timestamptz not null
);
create index used_upload_tokens_expires_at_idx on storage.used_upload_tokens (expires_at);

-- Only the server's own connection uses it: no API role may read or write it.
alter table storage.used_upload_tokens enable row level security;
revoke all on storage.used_upload_tokens from public, anon, authenticated, service_role;
