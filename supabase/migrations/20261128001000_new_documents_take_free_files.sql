-- A document added through the API may not point at a file another document, an earlier
-- version or a trashed document holds (found folding …0301: every other path refused a held
-- file, this one only claimed it).
create or replace function private.claim_file_of_new_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.claim_document_file(new.file_path);
  -- A second document on a held file would let its delete or edit reach bytes that belong to
  -- another document, an earlier version or the trash.
  if private.document_file_held(new.file_path) then
    raise exception 'This file belongs to another document' using errcode = '23505';
  end if;
  return new;
end
$$;
