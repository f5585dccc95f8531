-- A document's category is checked on an update only when it changes (issue 27 item 3): the
-- trigger fired for every update naming the category (the app's edit sends all the properties)
-- and the function returned at once when it was unchanged, still paying a security-definer
-- call. The insert keeps its trigger; the update gets its own, with the condition. The checks
-- and their messages are the same.

drop trigger documents_category_checked on public.documents;

create trigger documents_category_checked
  before insert on public.documents
  for each row
  when (pg_catalog.current_setting('role', true) = 'authenticated')
  execute function private.check_document_category();

-- An update only when the category changes: the app's edit sends the category it had, and a
-- call that returns at once still cost a security-definer function's entry and exit.
create trigger documents_category_checked_on_update
  before update of category on public.documents
  for each row
  when (pg_catalog.current_setting('role', true) = 'authenticated'
        and old.category is distinct from new.category)
  execute function private.check_document_category();
