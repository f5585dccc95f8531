-- Storage: the buckets and who may touch which objects. Object names are paths inside the
-- bucket, and the first folders name the organisation:
--   documents: documents/{organization_id}/{timestamp}-{random}.{ext}  (members read and write)
--   branding:  {organization_id}/logo.svg                               (members read, admins write)
-- Guessing another organisation's path gives nothing: its objects are invisible.

-- ============================================================================================
-- Tables (buckets)
-- ============================================================================================
-- Both private: files are reached with the caller's token or a signed URL, never publicly.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('documents', 'documents', false, 52428800, null),         -- 50 MB per object
  ('branding', 'branding', false, 1048575, '{image/svg+xml}') -- SVG only, under 1 MB
on conflict (id) do nothing;

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- storage.objects already has (bucket_id, name) unique and a prefix index on name.

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- None beyond private.caller_organization_id().

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Uploading with upsert and updating a file's content need select and update as well as insert.
create policy "members read their organisation's document files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members upload document files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members replace their organisation's document files"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  )
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members delete their organisation's document files"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members read their organisation's logo"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select private.caller_organization_id()::text)
  );

create policy "admins upload their organisation's logo"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

create policy "admins replace their organisation's logo"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  )
  with check (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

create policy "admins remove their organisation's logo"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

-- ============================================================================================
-- Functions
-- ============================================================================================
-- None.

-- ============================================================================================
-- Grants
-- ============================================================================================
-- The platform's grants on storage.objects stand; the policies above decide.
