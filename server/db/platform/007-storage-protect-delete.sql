-- As hosted Storage: storage.objects and storage.buckets refuse a direct SQL DELETE, which would
-- leave the stored bytes behind, unless the transaction sets `storage.allow_delete_query` (the
-- storage service does, server/storage/scope.ts `runAsCaller`). A statement trigger, so that
-- it refuses before row-level security has looked at a row.
create or replace function storage.protect_delete()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') <> 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.',
        errcode = '42501';
  end if;
  return null;
end
$$;

drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
