-- Documents e-mailed as links (issue 22, R14). The delivery job (server/mail/deliver-job.ts)
-- signs each link as the message's sender, and a link reads the file as its signer under
-- row-level security, where a second factor may be asked of them: an admin of an organisation
-- that requires one, or anyone who enrolled one. The message therefore records the assurance
-- level of the session that sent it (`content.sender_aal`, from the request's claims when the
-- message is written), and the links carry it. Whatever the caller put into the content under
-- that key is replaced.
create function private.record_sender_assurance()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.kind = 'documents' then
    new.content := coalesce(new.content, '{}'::jsonb)
      || jsonb_build_object('sender_aal', coalesce((select auth.jwt()) ->> 'aal', 'aal1'));
  end if;
  return new;
end
$$;

revoke all on function private.record_sender_assurance() from public, anon, authenticated;

create trigger outbox_messages_record_sender_assurance
  before insert on public.outbox_messages
  for each row execute function private.record_sender_assurance();
