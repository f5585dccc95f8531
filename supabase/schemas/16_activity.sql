-- The history of every change (issue 15): an append-only log written by the database itself,
-- by triggers on the tables that change (and so by every rpc function and every API write),
-- never by a client. Nobody can insert, change or delete an entry through the API, the service
-- role and master admins included; an entry goes only with its organisation.
--
-- Each entry names the person who acted as they were named then (`actor_name`), so it still
-- does after they are deactivated or leave; null actor: the server itself (e.g. the trash's
-- automatic purge). Document entries keep the document's id and name after it is deleted for
-- ever. Members read their organisation's document entries (a document's History); admins
-- read all of it (the Activity page).
--
-- Kinds: document.uploaded, .updated (property changes, old and new value), .renamed,
-- .content_changed, .file_replaced, .renewed, .version_restored, .deleted (to the trash),
-- .restored, .purged; member.invited, .reinvited, .invitation_cancelled, .invitation_accepted,
-- .role_changed, .deactivated, .reactivated; connection.connected, .disconnected,
-- .refresh_failed; settings.changed (which area and fields, never their secret values),
-- settings.logo_changed, settings.logo_removed.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.activity_log (
  id bigint generated always as identity primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  occurred_at timestamptz not null default now(),
  -- Who acted: null for the server itself. actor_name is their name at the time.
  actor_id uuid references public.user_profiles (id) on delete set null,
  actor_name text,
  kind text not null constraint activity_log_kind_check check (kind ~ '^[a-z]+\.[a-z_]+$'),
  -- The document concerned (no foreign key: the entry outlives the document).
  document_id uuid,
  -- What the entry is about, by name: the document, the member's e-mail, the provider…
  subject text,
  -- The change itself, e.g. {"changes": {"category": {"old": "HR", "new": "Legal"}}}.
  details jsonb not null default '{}'::jsonb
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The Activity page (newest first, by organisation, optionally by person or kind) and a
-- document's History.
create index activity_log_organization_id_idx
  on public.activity_log (organization_id, occurred_at desc, id desc);
create index activity_log_organization_kind_idx
  on public.activity_log (organization_id, kind, occurred_at desc);
create index activity_log_actor_id_idx on public.activity_log (actor_id, occurred_at desc);
create index activity_log_document_id_idx
  on public.activity_log (document_id, occurred_at desc) where document_id is not null;

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- Records one entry, acted by the caller (auth.uid(), null for the server). Where the server
-- acts for someone outside the organisation (a visitor of a share link, a person sending a
-- requested document: 21_share_links.sql, 22_document_requests.sql), it names them in the
-- transaction's `steward.actor_name`, which the entry keeps as its actor's name.
create function private.log_activity(
  organization_id uuid,
  kind text,
  document_id uuid,
  subject text,
  details jsonb default '{}'::jsonb
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _actor public.user_profiles;
begin
  select * into _actor from public.user_profiles p where p.id = auth.uid();
  insert into public.activity_log (organization_id, actor_id, actor_name, kind, document_id,
                                   subject, details)
  values (log_activity.organization_id, _actor.id,
          case when _actor.id is not null then private.display_name(_actor)
               else nullif(current_setting('steward.actor_name', true), '') end,
          log_activity.kind, log_activity.document_id, log_activity.subject,
          coalesce(log_activity.details, '{}'::jsonb));
end
$$;

-- Whether an organisation still exists: rows deleted with it (a cascade) log nothing.
create function private.organization_exists(organization_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.organizations o where o.id = organization_exists.organization_id)
$$;

-- Entries are never changed, and deleted only with their organisation. One change is the
-- database's own: when a member's profile is deleted, their entries lose the link to it
-- (`on delete set null`) and keep their name (`actor_name`).
create function private.keep_activity_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not private.organization_exists(old.organization_id) then
    return old;
  end if;
  if tg_op = 'UPDATE' and new.actor_id is null and old.actor_id is not null
     and (new.id, new.organization_id, new.occurred_at, new.actor_name, new.kind,
          new.document_id, new.subject, new.details)
         is not distinct from
         (old.id, old.organization_id, old.occurred_at, old.actor_name, old.kind,
          old.document_id, old.subject, old.details)
     and not exists (select 1 from public.user_profiles p where p.id = old.actor_id) then
    return new;
  end if;
  raise exception 'The history cannot be changed' using errcode = '42501';
end
$$;

create trigger activity_log_append_only
  before update or delete on public.activity_log
  for each row execute function private.keep_activity_log();

-- A member's name for the history (null when there is no such member).
create function private.member_name(user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select private.display_name(p) from public.user_profiles p where p.id = member_name.user_id
$$;

-- Documents: upload, property changes (old and new value), file changes (by the version the
-- change kept: Renew, content edit, replacement, version restore), trash, restore, purge.
create function private.log_document_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _changes jsonb;
  _version public.document_versions;
  _kind text;
  _details jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.log_activity(new.organization_id, 'document.uploaded', new.id, new.name,
      jsonb_build_object('category', new.category, 'size', new.size));
    return null;
  end if;
  if tg_op = 'DELETE' then
    if private.organization_exists(old.organization_id) then
      perform private.log_activity(old.organization_id, 'document.purged', old.id, old.name);
    end if;
    return null;
  end if;

  -- A category's rename reaches its documents; the history says nothing per document.
  if pg_catalog.current_setting('steward.category_rename', true) = 'on' then
    return null;
  end if;
  if old.deleted_at is null and new.deleted_at is not null then
    perform private.log_activity(new.organization_id, 'document.deleted', new.id, new.name);
    return null;
  end if;
  if old.deleted_at is not null and new.deleted_at is null then
    perform private.log_activity(new.organization_id, 'document.restored', new.id, new.name,
      case when new.name is distinct from old.name
           then jsonb_build_object('changes', jsonb_build_object(
                  'name', jsonb_build_object('old', old.name, 'new', new.name)))
           else '{}'::jsonb end);
    return null;
  end if;

  -- The properties a person changes, each with its old and new value (long texts shortened),
  -- as JSON writes them. Compared column by column: turning both rows into JSON and joining
  -- their keys cost a property edit about 0.2 ms.
  _changes := '{}'::jsonb;
  if new.name is distinct from old.name then
    _changes := _changes || jsonb_build_object('name', jsonb_build_object(
      'old', left(old.name, 500), 'new', left(new.name, 500)));
  end if;
  if new.category is distinct from old.category then
    _changes := _changes || jsonb_build_object('category', jsonb_build_object(
      'old', left(old.category, 500), 'new', left(new.category, 500)));
  end if;
  if new.expiry_date is distinct from old.expiry_date then
    _changes := _changes || jsonb_build_object('expiry_date', jsonb_build_object(
      'old', old.expiry_date, 'new', new.expiry_date));
  end if;
  if new.tags is distinct from old.tags then
    _changes := _changes || jsonb_build_object('tags', jsonb_build_object(
      'old', old.tags, 'new', new.tags));
  end if;
  if new.description is distinct from old.description then
    _changes := _changes || jsonb_build_object('description', jsonb_build_object(
      'old', left(old.description, 500), 'new', left(new.description, 500)));
  end if;
  if new.renewal_in_progress is distinct from old.renewal_in_progress then
    _changes := _changes || jsonb_build_object('renewal_in_progress', jsonb_build_object(
      'old', old.renewal_in_progress, 'new', new.renewal_in_progress));
  end if;
  if new.renewal_note is distinct from old.renewal_note then
    _changes := _changes || jsonb_build_object('renewal_note', jsonb_build_object(
      'old', left(old.renewal_note, 500), 'new', left(new.renewal_note, 500)));
  end if;
  if new.responsible_id is distinct from old.responsible_id then
    _changes := _changes || jsonb_build_object('responsible', jsonb_build_object(
      'old', private.member_name(old.responsible_id), 'new', private.member_name(new.responsible_id)));
  end if;

  if new.file_path is distinct from old.file_path then
    select * into _version from public.document_versions v
    where v.document_id = new.id and v.file_path = old.file_path
    order by v.version_number desc limit 1;
    _kind := case _version.change
               when 'renewal' then 'document.renewed'
               when 'version_restore' then 'document.version_restored'
               when 'file_replacement' then 'document.file_replaced'
               else 'document.content_changed'
             end;
    _details := jsonb_build_object('size', jsonb_build_object('old', old.size, 'new', new.size),
                                   'version_number', _version.version_number);
    if _version.change = 'version_restore' then
      -- restore_document_version names the version it brought back for this entry.
      _details := _details || jsonb_build_object('restored_version',
        nullif(current_setting('steward.restored_version', true), '')::integer);
    end if;
    if _changes <> '{}'::jsonb then
      _details := _details || jsonb_build_object('changes', _changes);
    end if;
    perform private.log_activity(new.organization_id, _kind, new.id, new.name, _details);
  elsif new.content_sha256 is distinct from old.content_sha256 and old.content_sha256 is not null then
    -- The file was overwritten where it is (an edit through the Storage API).
    perform private.log_activity(new.organization_id, 'document.content_changed', new.id, new.name,
      jsonb_build_object('size', jsonb_build_object('old', old.size, 'new', new.size)));
  elsif _changes <> '{}'::jsonb then
    -- Renamed when the name is the only change: the changes less the name are empty (a subquery
    -- over their keys, a plan node of its own, cost more).
    perform private.log_activity(new.organization_id,
      case when _changes - 'name' = '{}'::jsonb then 'document.renamed' else 'document.updated' end,
      new.id, new.name, jsonb_build_object('changes', _changes));
  end if;
  return null;
end
$$;

create trigger documents_log_activity
  after insert or update or delete on public.documents
  for each row execute function private.log_document_change();

-- Who looked (issue 23): `user_id` previewed (`document.viewed`: a signed link made or used)
-- or downloaded (`document.downloaded`) the stored object `object_name`. Recorded only for the
-- file (or an earlier version's file) of a document in a restricted category: for every other
-- file this reads two index entries and writes nothing. The same look by the same person within
-- a minute is one entry (a preview fetches its file in several ranges). Called by
-- `public.record_document_looks` below, in the embedded storage server's read of the object.
create function private.record_document_look(user_id uuid, object_name text, action text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _document public.documents;
  _kind text := 'document.' || action;
begin
  if action not in ('viewed', 'downloaded') then
    raise exception 'Unknown look: %', action;
  end if;
  select d.* into _document
    from (select x.id from public.documents x where x.file_path = object_name
          union all
          select v.document_id from public.document_versions v where v.file_path = object_name
          limit 1) f
    join public.documents d on d.id = f.id
    join public.document_categories c
      on c.organization_id = d.organization_id and c.name = d.category and c.restricted;
  if _document.id is null then
    return;
  end if;
  if exists (select 1 from public.activity_log l
              where l.document_id = _document.id and l.kind = _kind
                and l.actor_id = record_document_look.user_id
                and l.occurred_at > now() - interval '1 minute') then
    return;
  end if;
  insert into public.activity_log (organization_id, actor_id, actor_name, kind, document_id,
                                   subject, details)
  select _document.organization_id, p.id, private.display_name(p), _kind, _document.id,
         _document.name,
         case when _document.file_path <> object_name
              then jsonb_build_object('version', true) else '{}'::jsonb end
    from public.user_profiles p where p.id = record_document_look.user_id;
end
$$;

-- "Who looked" in the same statement as the read of the file (issue 27): a signed link made or
-- fetched, a download and a preview read the object as the caller under row-level security and
-- record the look (`private.record_document_look`) in that statement, one turn of the caller's
-- lane and one round trip instead of two. The storage routes call this function only for the
-- names the caller's read under RLS found; it re-checks that the caller may read each name
-- (`private.document_file_readable`, the rule storage.objects' read policy for the documents
-- bucket asks), so called by itself it records nothing a caller could not have looked at. The
-- person is always the caller (`auth.uid()`), never an argument.
create function public.record_document_looks(object_names text[], action text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me uuid := (select auth.uid());
  -- The caller's organisation, if active (any role); it also demands the second factor.
  _organization uuid := (select private.caller_organization_id('viewer'));
  _hidden text[];
  _leaving text[];
  _name text;
  _count integer := 0;
begin
  if action not in ('viewed', 'downloaded') then
    raise exception 'Unknown look: %', action;
  end if;
  if _me is null or _organization is null then
    return 0;
  end if;
  _hidden := private.caller_hidden_categories();
  _leaving := private.caller_files_leaving();
  for _name in select distinct n from unnest(record_document_looks.object_names) n loop
    continue when not exists (select 1 from storage.objects o
                               where o.bucket_id = 'documents' and o.name = _name);
    continue when not coalesce(
      private.document_file_readable(_name, _organization::text, _hidden, _leaving), false);
    perform private.record_document_look(_me, _name, action);
    _count := _count + 1;
  end loop;
  return _count;
end
$$;

-- Members: invitations (sent, sent again, cancelled, accepted), role changes, deactivation.
create function private.log_invitation_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.log_activity(new.organization_id, 'member.invited', null, new.email,
      jsonb_build_object('role', new.role));
  elsif tg_op = 'DELETE' then
    if old.accepted_at is null and private.organization_exists(old.organization_id) then
      perform private.log_activity(old.organization_id, 'member.invitation_cancelled', null,
                                   old.email);
    end if;
  elsif old.accepted_at is null and new.accepted_at is not null then
    perform private.log_activity(new.organization_id, 'member.invitation_accepted', null,
      new.email, jsonb_build_object('role', new.role));
  elsif new.accepted_at is null and (new.created_at is distinct from old.created_at
                                     or new.role is distinct from old.role) then
    perform private.log_activity(new.organization_id, 'member.reinvited', null, new.email,
      jsonb_build_object('role', new.role));
  end if;
  return null;
end
$$;

create trigger user_invitations_log_activity
  after insert or update or delete on public.user_invitations
  for each row execute function private.log_invitation_change();

create function private.log_member_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.organization_id is null or new.organization_id is distinct from old.organization_id then
    return null;
  end if;
  if new.role is distinct from old.role then
    perform private.log_activity(new.organization_id, 'member.role_changed', null,
      private.display_name(new),
      jsonb_build_object('member_id', new.id,
                         'changes', jsonb_build_object('role', jsonb_build_object(
                           'old', old.role, 'new', new.role))));
  end if;
  if new.is_active is distinct from old.is_active then
    perform private.log_activity(new.organization_id,
      case when new.is_active then 'member.reactivated' else 'member.deactivated' end, null,
      private.display_name(new), jsonb_build_object('member_id', new.id));
  end if;
  return null;
end
$$;

create trigger user_profiles_log_activity
  after update of role, is_active on public.user_profiles
  for each row execute function private.log_member_change();

-- Connections to outside services: connected, disconnected, a refresh that failed.
create function private.log_connection_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _who text := private.member_name(new.user_id);
begin
  if tg_op = 'INSERT' or (new.is_active and not old.is_active) then
    perform private.log_activity(new.organization_id, 'connection.connected', null,
      new.provider_id, jsonb_build_object('member', _who));
  elsif old.is_active and not new.is_active then
    perform private.log_activity(new.organization_id, 'connection.disconnected', null,
      new.provider_id, jsonb_build_object('member', _who));
  elsif new.needs_reconnect and not old.needs_reconnect then
    perform private.log_activity(new.organization_id, 'connection.refresh_failed', null,
      new.provider_id, jsonb_build_object('member', _who));
  end if;
  return null;
end
$$;

create trigger oauth_connections_log_activity
  after insert or update of is_active, needs_reconnect on public.oauth_connections
  for each row execute function private.log_connection_change();

-- Organisation settings: which area and which fields changed (never their values: some are
-- secrets, such as an OAuth client secret).
create function private.log_settings_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _row jsonb := to_jsonb(coalesce(new, old));
  _organization_id uuid := coalesce((_row ->> 'organization_id')::uuid,
                                    case when tg_table_name = 'organizations'
                                         then (_row ->> 'id')::uuid end);
  _fields jsonb;
begin
  if _organization_id is null or not private.organization_exists(_organization_id) then
    return null;
  end if;
  if tg_op = 'UPDATE' then
    select coalesce(jsonb_agg(o.key order by o.key), '[]'::jsonb) into _fields
    from jsonb_each(to_jsonb(old)) o join jsonb_each(to_jsonb(new)) n on n.key = o.key
    where o.value is distinct from n.value
      and o.key not in ('id', 'organization_id', 'updated_at', 'created_at', 'has_client_secret');
    if _fields = '[]'::jsonb then
      return null;
    end if;
  end if;
  perform private.log_activity(_organization_id, 'settings.changed', null,
    coalesce(_row ->> 'integration_key', _row ->> 'provider_id', _row ->> 'name'),
    jsonb_build_object('area', tg_table_name, 'operation', lower(tg_op))
      || case when _fields is not null then jsonb_build_object('fields', _fields) else '{}'::jsonb end);
  return null;
end
$$;

create trigger organizations_log_activity
  after update of name on public.organizations
  for each row execute function private.log_settings_change();
create trigger integration_customizations_log_activity
  after insert or update or delete on public.integration_customizations
  for each row execute function private.log_settings_change();
create trigger custom_integrations_log_activity
  after insert or update or delete on public.custom_integrations
  for each row execute function private.log_settings_change();
create trigger integration_contacts_log_activity
  after insert or update or delete on public.integration_contacts
  for each row execute function private.log_settings_change();
create trigger corporate_status_log_activity
  after insert or update or delete on public.corporate_status
  for each row execute function private.log_settings_change();
create trigger oauth_configs_log_activity
  after insert or update or delete on public.oauth_configs
  for each row execute function private.log_settings_change();
create trigger reminder_settings_log_activity
  after insert or update or delete on public.reminder_settings
  for each row execute function private.log_settings_change();
-- Not the nine a new organisation starts with (added by its own trigger, one level down).
create trigger departments_log_activity
  after insert or update or delete on public.departments
  for each row when (pg_trigger_depth() = 0) execute function private.log_settings_change();

-- The organisation's logo (bucket `branding`, `{organization_id}/logo.svg` or `logo.png`).
create function private.log_logo_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _object storage.objects := coalesce(new, old);
  _organization_id uuid := private.object_organization_id(_object.bucket_id, _object.name);
begin
  -- An image uploaded to be converted (`logo-source`) is not the logo yet: its logo.png is.
  if _object.bucket_id <> 'branding' or _organization_id is null
     or _object.name like '%/logo-source'
     or not private.organization_exists(_organization_id) then
    return null;
  end if;
  -- One logo replacing the other (an SVG after a converted image, or the reverse) removes the
  -- other: a change, already logged, not a removal.
  if tg_op = 'DELETE' and exists (
    select 1 from storage.objects o
    where o.bucket_id = 'branding'
      and o.name in (_organization_id || '/logo.svg', _organization_id || '/logo.png')
      and o.name <> _object.name
  ) then
    return null;
  end if;
  -- An upload's row is written twice (checked first, then with its size): log the final one.
  if tg_op <> 'DELETE' and coalesce(_object.metadata ->> 'size', '') !~ '^[0-9]+$' then
    return null;
  end if;
  perform private.log_activity(_organization_id,
    case when tg_op = 'DELETE' then 'settings.logo_removed' else 'settings.logo_changed' end,
    null, 'logo');
  return null;
end
$$;

-- Only for the branding bucket's rows (the function's first test, as the triggers' WHEN): every
-- upload, content edit and removal of a document's file would otherwise call it, and it found
-- the object's organisation before that test (about 150 µs of PGlite's time per object row).
-- Two triggers, as a row trigger's WHEN reads NEW only on insert and update, OLD only on
-- update and delete.
create trigger branding_objects_log_activity
  after insert or update on storage.objects
  for each row
  when (new.bucket_id = 'branding')
  execute function private.log_logo_change();
create trigger branding_objects_log_removal
  after delete on storage.objects
  for each row
  when (old.bucket_id = 'branding')
  execute function private.log_logo_change();

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.activity_log enable row level security;

-- Members read the history of their organisation's documents; admins read everything; but
-- nobody the entries about a document of a category they may not view (by the document's
-- category now), and who looked at a document (`document.viewed`, `document.downloaded`) only
-- those who may edit it.
create policy "members read their organisation's document history, admins all of it"
  on public.activity_log for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('viewer'))
    and (document_id is not null
         or organization_id = (select private.caller_organization_id('admin')))
    and (document_id is null
         or (select private.caller_hidden_categories()) = '{}'
         or coalesce(private.document_category(document_id)
                       <> all ((select private.caller_hidden_categories())::text[]), true))
    and (kind not in ('document.viewed', 'document.downloaded')
         or private.document_category(document_id)
              <> all ((select private.caller_uneditable_categories())::text[]))
  );

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Read only, for everyone; written by the triggers above alone.
revoke all on public.activity_log from public, anon, authenticated, service_role;
grant select on public.activity_log to authenticated, service_role;

revoke all on function private.log_activity(uuid, text, uuid, text, jsonb) from public, anon, authenticated;
revoke all on function private.organization_exists(uuid) from public, anon, authenticated;
revoke all on function private.keep_activity_log() from public, anon, authenticated;
revoke all on function private.member_name(uuid) from public, anon, authenticated;
revoke all on function private.record_document_look(uuid, text, text) from public, anon, authenticated;
revoke all on function public.record_document_looks(text[], text) from public, anon, authenticated;
revoke all on function private.log_document_change() from public, anon, authenticated;
revoke all on function private.log_invitation_change() from public, anon, authenticated;
revoke all on function private.log_member_change() from public, anon, authenticated;
revoke all on function private.log_connection_change() from public, anon, authenticated;
revoke all on function private.log_settings_change() from public, anon, authenticated;
revoke all on function private.log_logo_change() from public, anon, authenticated;
-- The storage server's read of a document file calls it as the caller (see above).
grant execute on function public.record_document_looks(text[], text) to authenticated;
