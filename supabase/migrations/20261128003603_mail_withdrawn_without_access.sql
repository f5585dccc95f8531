-- E-mails of documents waiting to go do not go once their sender may no longer view one of
-- their documents (issue 23; supabase/schemas/05_mail.sql and 21_share_links.sql), as share
-- links end: the access-change triggers withdraw them (failed, saying why), and an admin cannot
-- send such a message again. Before, a message queued while the mail server was down, or kept
-- in the Outbox, went out with its files after its sender had lost access to them.

create or replace function private.document_its_sender_may_not_view(message public.outbox_messages)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _name text;
begin
  if message.kind <> 'documents' or message.created_by is null then
    return null;
  end if;
  select a.value ->> 'name' into _name
    from jsonb_array_elements(message.attachments) with ordinality a
   where not coalesce(private.member_may_view_document(message.created_by,
                                                       (a.value ->> 'document_id')::uuid), false)
   order by a.ordinality
   limit 1;
  return _name;
end
$$;

create or replace function private.withdraw_mail_without_access(
  organization uuid,
  sender uuid default null,
  document uuid default null
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _message public.outbox_messages;
  _name text;
begin
  for _message in
    select * from public.outbox_messages m
     where m.organization_id = withdraw_mail_without_access.organization
       and m.kind = 'documents' and m.status in ('queued', 'outbox')
       and (withdraw_mail_without_access.sender is null
            or m.created_by = withdraw_mail_without_access.sender)
       and (withdraw_mail_without_access.document is null
            or m.attachments @> jsonb_build_array(
                 jsonb_build_object('document_id', withdraw_mail_without_access.document)))
     for update
  loop
    _name := private.document_its_sender_may_not_view(_message);
    if _name is not null then
      perform private.record_mail_outcome(_message.id, 'failed',
        'Not sent: its sender may no longer view ' || _name, now());
    end if;
  end loop;
end
$$;

create or replace function public.retry_outbox_message(message_id uuid)
returns public.mail_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _message public.outbox_messages;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to manage the outbox';
  end if;
  select * into _message from public.outbox_messages m
  where m.id = retry_outbox_message.message_id and m.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'Message not found';
  end if;
  if _message.status not in ('failed', 'outbox') then
    raise exception 'Only a failed message, or one kept in the Outbox, can be sent again';
  end if;
  if private.document_its_sender_may_not_view(_message) is not null then
    raise exception 'Its sender may no longer view %',
      private.document_its_sender_may_not_view(_message);
  end if;
  if private.organization_delivery(_me.organization_id) <> 'smtp' then
    raise exception 'E-mail delivery is not configured: messages stay in the Outbox';
  end if;
  update public.outbox_messages m
  set status = 'queued', attempts = 0, last_error = null
  where m.id = _message.id;
  perform private.enqueue_job('mail.deliver', jsonb_build_object('message_id', _message.id),
                              _message.organization_id, 'mail:' || _message.id, now(), 8);
  return (_message.id, 'queued')::public.mail_result;
end
$$;

create or replace function private.end_share_links_after_access_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization uuid;
  _member uuid;
  _document uuid;
begin
  case tg_table_name
    when 'member_group_members' then
      _organization := old.organization_id;
      _member := old.user_id;
    when 'user_profiles' then
      _organization := new.organization_id;
      _member := new.id;
    when 'documents' then
      _organization := new.organization_id;
      _document := new.id;
    else
      -- category_access and document_categories: any link of the organisation may be touched.
      if tg_op = 'DELETE' then
        _organization := old.organization_id;
      else
        _organization := new.organization_id;
      end if;
  end case;
  perform private.end_share_links_without_access(_organization, _member, _document);
  perform private.withdraw_mail_without_access(_organization, _member, _document);
  return null;
end
$$;

revoke all on function private.document_its_sender_may_not_view(public.outbox_messages)
  from public, anon, authenticated;
revoke all on function private.withdraw_mail_without_access(uuid, uuid, uuid)
  from public, anon, authenticated;
