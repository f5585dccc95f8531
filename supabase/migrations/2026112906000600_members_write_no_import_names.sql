-- A member's own file named like a hosted import's (`documents/{organisation}/import-{uuid}-…`)
-- was withheld from every reader by the documents read policy (2026112900200) until an import
-- of that id is done, which for a made-up id is never: the upload succeeded and the file was
-- nobody's to read. Such names are the imports' alone now: the members' write policies refuse
-- them (row-level security, as Storage answers any refused upload, rename or copy).

drop policy "members upload new document files to their organisation's folder" on storage.objects;
create policy "members upload new document files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
    and name !~ '^documents/[^/]+/import-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-'
  );

drop policy "members replace their organisation's files no document holds" on storage.objects;
create policy "members replace their organisation's files no document holds"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  )
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
    and name !~ '^documents/[^/]+/import-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-'
  );
