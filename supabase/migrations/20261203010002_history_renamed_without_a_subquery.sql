-- A document's history entry tells a rename from another edit without a subquery over the
-- changes' keys (issue 27 item 3): the name alone changed when the changes less the name are
-- empty. The same entries.

create or replace function private.log_document_change()
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
