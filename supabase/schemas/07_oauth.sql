-- Connections to outside services (OAuth authorisation-code flow).
--
-- The browser never sees a client secret or a provider token. It reads which providers are
-- configured through the view oauth_provider_settings and its own connections from
-- oauth_connections; the edge function `oauth` (service role) does the rest with
-- oauth_configs.client_secret, oauth_connection_tokens and oauth_states.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Per organisation and provider: the OAuth client registered by the organisation, and optional
-- overrides of the catalogue's authorisation and token addresses.
create table public.oauth_configs (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  provider_id text not null
    constraint oauth_configs_provider_id_check check (provider_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
  client_id text not null
    constraint oauth_configs_client_id_check check (char_length(client_id) between 1 and 500),
  -- Readable by the service role only (see the grants).
  client_secret text
    constraint oauth_configs_client_secret_length check (char_length(client_secret) <= 2000),
  has_client_secret boolean generated always as (client_secret is not null) stored,
  authorize_url text
    constraint oauth_configs_authorize_url_check check (
      authorize_url ~ '^https?://[^[:space:]]+$' and char_length(authorize_url) <= 2048
    ),
  token_url text
    constraint oauth_configs_token_url_check check (
      token_url ~ '^https?://[^[:space:]]+$' and char_length(token_url) <= 2048
    ),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint oauth_configs_organization_provider_key unique (organization_id, provider_id)
);

-- A user's connection to a provider. Tokens are in oauth_connection_tokens.
create table public.oauth_connections (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null
    constraint oauth_connections_provider_id_check check (provider_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  expires_at timestamptz,
  scopes text[] not null default '{}',
  is_active boolean not null default true,
  -- Set when a refresh failed: the user must connect again.
  needs_reconnect boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint oauth_connections_user_provider_key unique (user_id, provider_id)
);

-- The provider tokens of a connection, as the edge function stores them (encrypted by it;
-- opaque text here). Service role only.
create table public.oauth_connection_tokens (
  connection_id uuid primary key references public.oauth_connections (id) on delete cascade,
  access_token text not null,
  refresh_token text,
  -- A lease for refreshing: the function takes it with a conditional update
  -- (`refreshing_until is null or refreshing_until < now()`), so one refresh per connection runs
  -- at a time even under concurrent requests.
  refreshing_until timestamptz,
  updated_at timestamptz not null default now()
);

-- Pending authorisation requests: the SHA-256 (hex) of the random `state` bound to the user,
-- organisation and provider, valid briefly and usable once. Service role only.
create table public.oauth_states (
  id uuid primary key default gen_random_uuid(),
  state_hash text not null unique
    constraint oauth_states_state_hash_check check (state_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  provider_id text not null
    constraint oauth_states_provider_id_check check (provider_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
  redirect_uri text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- oauth_configs: (organization_id, provider_id) is covered by its unique constraint.
-- oauth_connections: (user_id, provider_id) by its unique constraint.
create index oauth_connections_organization_id_idx on public.oauth_connections (organization_id);
create index oauth_states_user_id_idx on public.oauth_states (user_id);
create index oauth_states_organization_id_idx on public.oauth_states (organization_id);
create index oauth_states_expires_at_idx on public.oauth_states (expires_at);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger oauth_configs_touch_updated_at
  before update on public.oauth_configs
  for each row execute function private.touch_updated_at();
create trigger oauth_connections_touch_updated_at
  before update on public.oauth_connections
  for each row execute function private.touch_updated_at();
create trigger oauth_connection_tokens_touch_updated_at
  before update on public.oauth_connection_tokens
  for each row execute function private.touch_updated_at();

-- What the browser may know about its organisation's provider configuration: never the secret,
-- only whether one is set. security_invoker: the caller's privileges and policies apply.
create view public.oauth_provider_settings
with (security_invoker = true)
as
  select c.provider_id, c.client_id, c.has_client_secret, c.authorize_url, c.token_url,
         c.updated_at
  from public.oauth_configs c;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.oauth_configs enable row level security;
alter table public.oauth_connections enable row level security;
alter table public.oauth_connection_tokens enable row level security;
alter table public.oauth_states enable row level security;

create policy "members read their organisation's provider settings"
  on public.oauth_configs for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "active members read their own connections"
  on public.oauth_connections for select to authenticated
  using (
    user_id = (select auth.uid())
    and organization_id = (select private.caller_organization_id())
  );

-- oauth_configs is written through save_oauth_config; oauth_connections by the edge function
-- (service role) and disconnect_oauth_connection; oauth_connection_tokens and oauth_states have
-- no policies: only the service role (which bypasses row-level security) uses them.

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Master admins register their organisation's OAuth client for a provider. A null or blank
-- client_secret keeps the stored one, so the secret can stay write-only in the interface.
create function public.save_oauth_config(
  provider_id text,
  client_id text,
  client_secret text,
  authorize_url text,
  token_url text
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
-- The parameters share names with columns (the API contract); in SQL, a bare name is a column.
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _provider_id text := private.trim_whitespace(coalesce(save_oauth_config.provider_id, ''));
  _client_id text := private.trim_whitespace(coalesce(save_oauth_config.client_id, ''));
  _client_secret text := nullif(private.trim_whitespace(save_oauth_config.client_secret), '');
  _authorize_url text := nullif(private.trim_whitespace(save_oauth_config.authorize_url), '');
  _token_url text := nullif(private.trim_whitespace(save_oauth_config.token_url), '');
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can configure OAuth providers';
  end if;
  if _provider_id !~ '^[a-z0-9][a-z0-9_-]{0,62}$' then
    raise exception 'Invalid provider id';
  end if;
  if _client_id = '' then
    raise exception 'Client ID is required';
  end if;
  if char_length(_client_id) > 500 then
    raise exception 'Client ID is too long';
  end if;
  if char_length(_client_secret) > 2000 then
    raise exception 'Client secret is too long';
  end if;
  if _authorize_url !~ '^https?://[^[:space:]]+$' or char_length(_authorize_url) > 2048 then
    raise exception 'Authorization URL must be an http or https address';
  end if;
  if _token_url !~ '^https?://[^[:space:]]+$' or char_length(_token_url) > 2048 then
    raise exception 'Token URL must be an http or https address';
  end if;

  insert into public.oauth_configs as c
    (organization_id, provider_id, client_id, client_secret, authorize_url, token_url)
  values (_me.organization_id, _provider_id, _client_id, _client_secret, _authorize_url, _token_url)
  on conflict (organization_id, provider_id) do update
    set client_id = excluded.client_id,
        client_secret = coalesce(excluded.client_secret, c.client_secret),
        authorize_url = excluded.authorize_url,
        token_url = excluded.token_url;
end
$$;

-- The connection's own user disconnects it: it stays listed as inactive, and its tokens are
-- deleted, so nothing can use them afterwards.
create function public.disconnect_oauth_connection(connection_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  update public.oauth_connections c
  set is_active = false, needs_reconnect = false
  where c.id = disconnect_oauth_connection.connection_id
    and c.user_id = _me.id
    and c.organization_id = private.caller_organization_id();
  if not found then
    raise exception 'Connection not found';
  end if;
  delete from public.oauth_connection_tokens t
  where t.connection_id = disconnect_oauth_connection.connection_id;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.oauth_configs, public.oauth_connections, public.oauth_connection_tokens,
  public.oauth_states, public.oauth_provider_settings from anon, authenticated;
-- Every column but client_secret; the view reads only these.
grant select (id, organization_id, provider_id, client_id, has_client_secret, authorize_url,
  token_url, created_at, updated_at) on public.oauth_configs to authenticated;
grant select on public.oauth_provider_settings to authenticated;
grant select on public.oauth_connections to authenticated;

revoke all on function public.save_oauth_config(text, text, text, text, text)
  from public, anon, authenticated;
revoke all on function public.disconnect_oauth_connection(uuid) from public, anon, authenticated;
grant execute on function public.save_oauth_config(text, text, text, text, text) to authenticated;
grant execute on function public.disconnect_oauth_connection(uuid) to authenticated;
