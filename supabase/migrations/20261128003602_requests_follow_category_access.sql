-- Document requests into a restricted category are for the admins who may view it (issue 23;
-- supabase/schemas/22_document_requests.sql). Before, every admin read every request and who
-- was asked, and could add people to it, send a link again or close it, also into a category
-- they may not view; now those answer as for a request that does not exist.
drop policy "admins read their organisation's document requests" on public.document_requests;
drop policy "admins read who was asked for documents" on public.document_request_recipients;

-- Of the requests into a category, only the admins who may view it (issue 23: what a member
-- may not view answers like a row that does not exist).
create policy "admins read their organisation's document requests"
  on public.document_requests for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('admin'))
    and category <> all ((select private.caller_hidden_categories())::text[])
  );

create policy "admins read who was asked for documents"
  on public.document_request_recipients for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('admin'))
    and exists (select 1 from public.document_requests q where q.id = request_id)
  );

create or replace function public.add_document_request_recipients(request_id uuid, recipients jsonb)
returns setof public.document_request_link
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.request_admin();
  _request public.document_requests;
begin
  select * into _request from public.document_requests q
  where q.id = add_document_request_recipients.request_id
    and q.organization_id = _me.organization_id
    and q.category <> all (private.caller_hidden_categories())
  for update;
  if not found then
    raise exception 'Request not found';
  end if;
  if _request.closed_at is not null then
    raise exception 'This request is closed';
  end if;
  return query
    select * from private.add_document_request_recipients(_me, _request,
                                                          add_document_request_recipients.recipients);
end
$$;

create or replace function public.resend_document_request(recipient_id uuid)
returns public.document_request_link
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.request_admin();
  _recipient public.document_request_recipients;
begin
  select r.* into _recipient from public.document_request_recipients r
  join public.document_requests q on q.id = r.request_id
  where r.id = resend_document_request.recipient_id and r.organization_id = _me.organization_id
    and q.category <> all (private.caller_hidden_categories())
  for update of r;
  if not found then
    raise exception 'Request not found';
  end if;
  if _recipient.submitted_at is not null then
    raise exception 'This person has already sent their document';
  end if;
  if (select q.closed_at from public.document_requests q where q.id = _recipient.request_id)
     is not null then
    raise exception 'This request is closed';
  end if;
  return private.issue_document_request_link(_recipient.id, _me.id);
end
$$;

create or replace function public.close_document_request(request_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.request_admin();
begin
  update public.document_requests q
  set closed_at = coalesce(q.closed_at, now()), closed_by = coalesce(q.closed_by, _me.id)
  where q.id = close_document_request.request_id and q.organization_id = _me.organization_id
    and q.category <> all (private.caller_hidden_categories());
  if not found then
    raise exception 'Request not found';
  end if;
end
$$;
