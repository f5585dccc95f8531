-- The organisation's total of search-vector bytes kept out of line (private.search_vector_bytes)
-- is written by a statement that inserts text rows only when it changes it (issue 27 item 3),
-- as the update trigger already did. A new document's text row holds only its properties'
-- vector, nearly always kept in its row (2 KB or less), so every document insert wrote its
-- organisation's total again with a change of 0: an upsert of that row inside
-- documents_search_on_insert (and, on PostgreSQL, its row lock held to the end of the
-- transaction, which made concurrent inserts of one organisation wait for each other). An
-- organisation with no row reads as 0 (search_documents), as before.
create or replace function private.search_vector_bytes_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.search_vector_bytes as b (organization_id, bytes)
  select t.organization_id, sum(private.vector_bytes_out_of_line(t.search_vector))
    from new_rows n
    join public.document_texts t on t.document_id = n.document_id
   group by t.organization_id
  having sum(private.vector_bytes_out_of_line(t.search_vector)) <> 0
  on conflict (organization_id) do update set bytes = b.bytes + excluded.bytes;
  return null;
end
$$;
