-- Share links (issue 25, item 3): a member sends a document to someone without an account (the
-- insurance certificate to a venue, the safeguarding policy to a parent) as a link that lasts a
-- while (7 days unless its maker chooses otherwise, at most the installation's
-- `[sharing] max_link_expiry`), optionally with a password, and that its maker or an admin can
-- revoke. The page the link opens shows the document's name, a preview and Download, nothing
-- else of the organisation; each opening and download is recorded in the document's history.
--
-- The embedded server serves the links (server/sharing/): it makes them (hashing a password
-- with bcrypt in its CPU pool, never on the thread that answers HTTP, and never in the
-- database, whose one PGlite worker serves every organisation) and opens them, asking the
-- private functions below. The token is 244 random bits, returned once to its maker and stored
-- only as its SHA-256, as invitation tokens are (06_invitations.sql); the password only as its
-- bcrypt hash. Neither is in a table any API role can read.
--
-- A link works only while it is not revoked, not expired, its document is not in the trash,
-- and its maker still may share the document: an active member, not a Viewer, who may view it
-- (`private.member_may_view_document`, the one rule of issue 23's contract). Moving the
-- document to the trash, or deactivating the maker (or their leaving the organisation), revokes
-- the maker's links for good, so a restore or a reactivation does not bring them back.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.share_links (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  document_id uuid not null references public.documents (id) on delete cascade,
  created_by uuid references public.user_profiles (id) on delete set null,
  -- Who the link is for, as its maker noted it ("Riverside Hall, insurance"): for the lists.
  label text
    constraint share_links_label_length check (char_length(label) between 1 and 200),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  password_protected boolean not null default false,
  revoked_at timestamptz,
  revoked_by uuid references public.user_profiles (id) on delete set null,
  -- How often the page was opened, and when last.
  opened_count integer not null default 0,
  last_opened_at timestamptz,
  constraint share_links_expires_after_creation check (expires_at > created_at)
);

-- The secret half of a link, kept out of the exposed schema.
create table private.share_link_secrets (
  share_link_id uuid primary key references public.share_links (id) on delete cascade,
  token_hash text not null unique
    constraint share_link_secrets_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$'),
  -- bcrypt, as the auth service stores passwords; null without a password.
  password_hash text
    constraint share_link_secrets_password_hash_check
      check (password_hash ~ '^\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$')
);

-- One row. The embedded server writes steward.toml's `[sharing]` here at start-up.
create table private.share_link_settings (
  id boolean primary key default true constraint share_link_settings_one_row check (id),
  -- How long a new link lasts unless its maker chooses.
  default_expiry interval not null default interval '7 days'
    constraint share_link_settings_default_expiry_check check (default_expiry > interval '0'),
  -- The longest a link may last (`[sharing] max_link_expiry`).
  max_expiry interval not null default interval '30 days'
    constraint share_link_settings_max_expiry_check check (max_expiry > interval '0'),
  -- Links one organisation may make in an hour (`[sharing] links_per_hour`).
  links_per_hour integer not null default 100
    constraint share_link_settings_links_per_hour_check check (links_per_hour >= 1),
  updated_at timestamptz not null default now()
);
insert into private.share_link_settings default values;

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The organisation's list (newest first), a document's links, a maker's links, and the hourly
-- count of new links.
create index share_links_organization_id_created_at_idx
  on public.share_links (organization_id, created_at desc);
create index share_links_document_id_idx on public.share_links (document_id);
create index share_links_created_by_idx on public.share_links (created_by);
create index share_links_revoked_by_idx on public.share_links (revoked_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- Access to one document is the one rule of issue 23's contract,
-- `private.member_may_view_document` and `member_may_edit_document` (03_documents.sql): the
-- category's access, so a link of a document in a restricted category can be made only by a
-- member who may view it, and stops working when its maker loses that access.

-- Whether a member may (still) share a document: one who may view it and may change things
-- (a Viewer of issue 23 changes nothing, and sends nothing outside, as with e-mail).
create function private.member_may_share_document(user_id uuid, document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.member_may_view_document(member_may_share_document.user_id,
                                          member_may_share_document.document_id)
     and exists (
       select 1 from public.user_profiles p
       where p.id = member_may_share_document.user_id
         and private.role_rank(p.role) >= private.role_rank('user')
     )
$$;

-- `n days` (or hours, minutes) for the refusal of a link that would last too long.
create function private.interval_text(length interval)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when extract(epoch from length) >= 86400 and extract(epoch from length)::bigint % 86400 = 0
      then (extract(epoch from length)::bigint / 86400) || ' day'
           || case when extract(epoch from length)::bigint / 86400 = 1 then '' else 's' end
    when extract(epoch from length) >= 3600 and extract(epoch from length)::bigint % 3600 = 0
      then (extract(epoch from length)::bigint / 3600) || ' hour'
           || case when extract(epoch from length)::bigint / 3600 = 1 then '' else 's' end
    else ceil(extract(epoch from length) / 60)::bigint || ' minutes'
  end
$$;

-- A member makes a share link of a document they may share, lasting until `expires_at` (null:
-- the installation's default), with an optional note of whom it is for and an optional
-- password, already hashed with bcrypt by the server. Called by the embedded server's
-- `POST /share/v1/links` with the caller's claims set (private: no API role reaches it).
-- Returns the link and its token, which exists in plain text only here.
create function private.create_share_link(
  document_id uuid,
  expires_at timestamptz,
  label text,
  password_hash text
)
returns table (link_id uuid, token text, link_expires_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _settings private.share_link_settings;
  _document public.documents;
  _label text := nullif(private.trim_whitespace(create_share_link.label), '');
  _expires timestamptz;
  -- Two version-4 UUIDs: 2 × 122 random bits from the server's cryptographic generator.
  _token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  _link public.share_links;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('user') then
    raise exception 'Insufficient permissions to share documents';
  end if;
  select * into _document from public.documents d
  where d.id = create_share_link.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null;
  if not found or not private.member_may_view_document(_me.id, _document.id) then
    raise exception 'Document not found';
  end if;
  select * into _settings from private.share_link_settings;
  _expires := coalesce(create_share_link.expires_at, now() + _settings.default_expiry);
  if _expires <= now() then
    raise exception 'The link must expire in the future';
  end if;
  -- A minute's grace: a date picked in the app is "now + n days" a moment before it arrives.
  if _expires > now() + _settings.max_expiry + interval '1 minute' then
    raise exception 'A share link can last at most %', private.interval_text(_settings.max_expiry);
  end if;
  if char_length(_label) > 200 then
    raise exception 'The note must be at most 200 characters';
  end if;
  if create_share_link.password_hash is not null
     and create_share_link.password_hash !~ '^\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$' then
    raise exception 'The password could not be stored';
  end if;
  -- A bound per organisation, so that a stolen session cannot hand out the library.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('share links ' || _me.organization_id, 7305));
  if (select count(*) from public.share_links l
      where l.organization_id = _me.organization_id
        and l.created_at > now() - interval '1 hour') >= _settings.links_per_hour then
    raise exception using errcode = 'PT429', message = format(
      'Your organization may make at most %s share links an hour. Please try again later.',
      _settings.links_per_hour);
  end if;

  insert into public.share_links as l
    (organization_id, document_id, created_by, label, expires_at, password_protected)
  values (_me.organization_id, _document.id, _me.id, _label, _expires,
          create_share_link.password_hash is not null)
  returning l.* into _link;
  insert into private.share_link_secrets (share_link_id, token_hash, password_hash)
  values (_link.id, private.hash_invitation_token(_token), create_share_link.password_hash);
  perform private.log_activity(_me.organization_id, 'document.link_created', _document.id,
    _document.name,
    jsonb_build_object('link_id', _link.id, 'label', _label, 'expires_at', _expires,
                       'password', create_share_link.password_hash is not null));
  return query select _link.id, _token, _link.expires_at;
end
$$;

-- The link a token opens, while it works (see the top of this file): its document's name, file
-- and size, and the password's hash. No row for an unknown, revoked or expired token, a
-- document in the trash, or a maker who may no longer share it. Every token takes the same
-- path, a hash and one indexed lookup, so the time of a refusal tells nothing.
create function private.share_link_to_open(token text)
returns table (
  link_id uuid,
  organization_id uuid,
  document_id uuid,
  document_name text,
  file_path text,
  size bigint,
  expires_at timestamptz,
  password_hash text
)
language sql
stable
security definer
set search_path = ''
as $$
  select l.id, l.organization_id, d.id, d.name, d.file_path, d.size, l.expires_at, s.password_hash
  from private.share_link_secrets s
  join public.share_links l on l.id = s.share_link_id
  join public.documents d on d.id = l.document_id and d.organization_id = l.organization_id
  where s.token_hash = private.hash_invitation_token(left(coalesce(share_link_to_open.token, ''), 200))
    and l.revoked_at is null
    and l.expires_at > now()
    and d.deleted_at is null
    and private.member_may_share_document(l.created_by, l.document_id)
$$;

-- Records that a link's page was opened (`downloaded` false) or its file downloaded, in the
-- document's history, by "Someone with a share link" (no member acted).
create function private.record_share_link_use(link_id uuid, downloaded boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _link public.share_links;
  _name text;
begin
  if not record_share_link_use.downloaded then
    update public.share_links l
    set opened_count = l.opened_count + 1, last_opened_at = now()
    where l.id = record_share_link_use.link_id
    returning l.* into _link;
  else
    select * into _link from public.share_links l where l.id = record_share_link_use.link_id;
  end if;
  if _link.id is null then
    return;
  end if;
  select d.name into _name from public.documents d where d.id = _link.document_id;
  perform set_config('steward.actor_name', 'Someone with a share link', true);
  perform private.log_activity(_link.organization_id,
    case when record_share_link_use.downloaded then 'document.link_downloaded'
         else 'document.link_opened' end,
    _link.document_id, _name,
    jsonb_build_object('link_id', _link.id, 'label', _link.label,
                       'made_by', private.member_name(_link.created_by)));
  perform set_config('steward.actor_name', '', true);
end
$$;

-- Links of a member who is no longer an active member of the organisation are revoked for good.
create function private.end_share_links_of_former_member()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.share_links l set revoked_at = now()
  where l.created_by = new.id and l.revoked_at is null;
  return null;
end
$$;

create trigger user_profiles_end_share_links
  after update of is_active, organization_id on public.user_profiles
  for each row
  when ((old.is_active and not new.is_active)
        or old.organization_id is distinct from new.organization_id)
  execute function private.end_share_links_of_former_member();

-- A document moved to the trash takes its links along, for good.
create function private.end_share_links_of_trashed_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.share_links l set revoked_at = now(), revoked_by = new.deleted_by
  where l.document_id = new.id and l.revoked_at is null;
  return null;
end
$$;

create trigger documents_end_share_links
  after update of deleted_at on public.documents
  for each row
  when (old.deleted_at is null and new.deleted_at is not null)
  execute function private.end_share_links_of_trashed_document();

-- A link also ends for good when its maker may no longer share its document for any other
-- reason (issue 23's access per category): removed from the group a restricted category names,
-- the category restricted or its rules changed, made a Viewer, or the document moved into a
-- category the maker may not view. Giving the access back later (re-adding the member to the
-- group) does not revive a link its maker had lost. The check runs when the transaction
-- commits, so that rules replaced within one call are judged as they end up.
create function private.end_share_links_without_access(
  organization uuid,
  maker uuid default null,
  document uuid default null
)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.share_links l set revoked_at = now()
   where l.organization_id = end_share_links_without_access.organization
     and l.revoked_at is null
     and l.expires_at > now()
     and (end_share_links_without_access.maker is null
          or l.created_by = end_share_links_without_access.maker)
     and (end_share_links_without_access.document is null
          or l.document_id = end_share_links_without_access.document)
     and not coalesce(private.member_may_share_document(l.created_by, l.document_id), false);
$$;

-- Run by the triggers below when an access changes: ends the links, and withdraws the e-mails
-- of documents waiting to go, of the members who may no longer view their documents
-- (private.withdraw_mail_without_access, 05_mail.sql).
create function private.end_share_links_after_access_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization uuid;
  _member uuid;
  _document uuid;
begin
  case tg_table_name
    when 'member_group_members' then
      _organization := old.organization_id;
      _member := old.user_id;
    when 'user_profiles' then
      _organization := new.organization_id;
      _member := new.id;
    when 'documents' then
      _organization := new.organization_id;
      _document := new.id;
    else
      -- category_access and document_categories: any link of the organisation may be touched.
      if tg_op = 'DELETE' then
        _organization := old.organization_id;
      else
        _organization := new.organization_id;
      end if;
  end case;
  perform private.end_share_links_without_access(_organization, _member, _document);
  perform private.withdraw_mail_without_access(_organization, _member, _document);
  return null;
end
$$;

create constraint trigger member_group_members_end_share_links
  after delete on public.member_group_members
  deferrable initially deferred
  for each row execute function private.end_share_links_after_access_change();

create constraint trigger category_access_end_share_links
  after update or delete on public.category_access
  deferrable initially deferred
  for each row execute function private.end_share_links_after_access_change();

create constraint trigger document_categories_end_share_links
  after update of restricted on public.document_categories
  deferrable initially deferred
  for each row
  when (new.restricted and not old.restricted)
  execute function private.end_share_links_after_access_change();

create constraint trigger user_profiles_end_share_links_of_role
  after update of role on public.user_profiles
  deferrable initially deferred
  for each row
  when (old.role is distinct from new.role)
  execute function private.end_share_links_after_access_change();

create constraint trigger documents_end_share_links_of_category
  after update of category on public.documents
  deferrable initially deferred
  for each row
  when (old.category is distinct from new.category)
  execute function private.end_share_links_after_access_change();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- No API role reads or writes links directly: the functions below list and revoke them, the
-- server makes and opens them.
alter table public.share_links enable row level security;
alter table private.share_link_secrets enable row level security;
alter table private.share_link_settings enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.share_link_summary as (
  id uuid,
  document_id uuid,
  document_name text,
  label text,
  created_by uuid,
  created_by_name text,
  created_at timestamptz,
  expires_at timestamptz,
  password_protected boolean,
  opened_count integer,
  last_opened_at timestamptz
);

-- The links that work now, newest first (at most 500): of one document, or with `document_id`
-- null of the whole organisation. Admins see everyone's links, other members their own; only
-- links of documents the caller may view.
create function public.list_share_links(document_id uuid)
returns setof public.share_link_summary
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _admin boolean := private.role_rank(_me.role) >= private.role_rank('admin');
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  return query
    select l.id, l.document_id, d.name, l.label, l.created_by, private.display_name(p),
           l.created_at, l.expires_at, l.password_protected, l.opened_count, l.last_opened_at
    from public.share_links l
    join public.documents d on d.id = l.document_id
    left join public.user_profiles p on p.id = l.created_by
    where l.organization_id = _me.organization_id
      and (list_share_links.document_id is null or l.document_id = list_share_links.document_id)
      and (_admin or l.created_by = _me.id)
      and l.revoked_at is null
      and l.expires_at > now()
      and private.member_may_view_document(_me.id, l.document_id)
      and private.member_may_share_document(l.created_by, l.document_id)
    order by l.created_at desc, l.id
    limit 500;
end
$$;

-- The maker of a link, or an admin, revokes it: it stops working at once.
create function public.revoke_share_link(link_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _link public.share_links;
  _name text;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _link from public.share_links l
  where l.id = revoke_share_link.link_id and l.organization_id = _me.organization_id
  for update;
  if not found or not private.member_may_view_document(_me.id, _link.document_id)
     or (_link.created_by is distinct from _me.id
         and private.role_rank(_me.role) < private.role_rank('admin')) then
    raise exception 'Share link not found';
  end if;
  if _link.revoked_at is not null then
    return;
  end if;
  update public.share_links l set revoked_at = now(), revoked_by = _me.id where l.id = _link.id;
  select d.name into _name from public.documents d where d.id = _link.document_id;
  perform private.log_activity(_me.organization_id, 'document.link_revoked', _link.document_id,
    _name, jsonb_build_object('link_id', _link.id, 'label', _link.label,
                              'made_by', private.member_name(_link.created_by)));
end
$$;

-- ============================================================================================
-- Second factor
-- ============================================================================================
-- No API role reaches public.share_links (see Policies), so it needs no restrictive policy of
-- 20_second_factor.sql; the functions above refuse a session without its second factor
-- through caller_profile().

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.share_links from anon, authenticated;
revoke all on private.share_link_secrets from public, anon, authenticated, service_role;
revoke all on private.share_link_settings from public, anon, authenticated, service_role;

revoke all on function private.member_may_share_document(uuid, uuid) from public, anon, authenticated;
revoke all on function private.interval_text(interval) from public, anon, authenticated;
revoke all on function private.create_share_link(uuid, timestamptz, text, text)
  from public, anon, authenticated;
revoke all on function private.share_link_to_open(text) from public, anon, authenticated;
revoke all on function private.record_share_link_use(uuid, boolean) from public, anon, authenticated;
revoke all on function private.end_share_links_of_former_member() from public, anon, authenticated;
revoke all on function private.end_share_links_of_trashed_document()
  from public, anon, authenticated;
revoke all on function private.end_share_links_without_access(uuid, uuid, uuid)
  from public, anon, authenticated;
revoke all on function private.end_share_links_after_access_change()
  from public, anon, authenticated;
revoke all on function public.list_share_links(uuid) from public, anon, authenticated;
revoke all on function public.revoke_share_link(uuid) from public, anon, authenticated;
grant execute on function public.list_share_links(uuid) to authenticated;
grant execute on function public.revoke_share_link(uuid) to authenticated;
