-- Issue 23: admins read the Outbox but for messages about a document they may not view (its
-- name, and the links a member sent, which open as that member).

create or replace function private.message_names_documents_in(attachments jsonb, content jsonb, categories text[])
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.documents d
     where d.category = any (categories)
       and d.id in (select (x ->> 'document_id')::uuid
                      from jsonb_array_elements(
                             case when jsonb_typeof(attachments) = 'array' then attachments
                                  else '[]'::jsonb end) x
                     where x ->> 'document_id' ~ '^[0-9a-fA-F-]{36}$'
                    union all
                    select (x ->> 'id')::uuid
                      from jsonb_array_elements(
                             case when jsonb_typeof(content -> 'items') = 'array'
                                  then content -> 'items' else '[]'::jsonb end) x
                     where x ->> 'id' ~ '^[0-9a-fA-F-]{36}$'));
end
$$;

revoke all on function private.message_names_documents_in(jsonb, jsonb, text[])
  from public, anon, authenticated;
grant execute on function private.message_names_documents_in(jsonb, jsonb, text[]) to authenticated;

drop policy "admins read their organisation's outbox" on public.outbox_messages;
create policy "admins read their organisation's outbox"
  on public.outbox_messages for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('admin'))
    and ((select private.caller_hidden_categories()) = '{}'
         or not private.message_names_documents_in(attachments, content,
                                                    (select private.caller_hidden_categories())))
  );
