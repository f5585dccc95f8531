-- The logo's history trigger on storage.objects fires for the branding bucket's rows only
-- (issue 27 item 3): it fired for every object row, so every upload, content edit and removal
-- of a document's file called private.log_logo_change, which found the object's organisation
-- (private.object_organization_id, two calls of storage.foldername) before it returned for any
-- bucket but branding: about 150 µs of PGlite's time per object row, 60 µs per request of the
-- load test. The same test as the triggers' WHEN; the same entries.

drop trigger branding_objects_log_activity on storage.objects;

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
