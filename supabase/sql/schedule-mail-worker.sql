-- Hosted Supabase only: runs the `mail-worker` edge function every minute from pg_cron, through
-- pg_net, with the service-role key. NOT a migration: `supabase db push` and the embedded
-- server's migrator read only supabase/migrations/, and the embedded backend (PGlite or a plain
-- PostgreSQL) has neither pg_cron nor pg_net; there the server's own scheduler does this work.
--
-- Run it once in the SQL editor of the project (as `postgres`), after
--   supabase db push
--   supabase secrets set SITE_URL=https://<app> SMTP_URL=smtps://<user>:<password>@<host>:465 \
--     SMTP_ADMIN_EMAIL=<sender address> [SMTP_SENDER_NAME=<name>]
--   supabase functions deploy mail-worker
-- replacing <project-ref> and <service-role key> below (Project Settings → API). The key is
-- kept in Vault, encrypted, and read only when the job runs. See docs/reminders.md.
--
-- Each call runs the reminder pass (organisations whose hour has come) and delivers the due
-- messages of public.outbox_messages. Calls may overlap (a slow SMTP server): the database
-- hands each organisation's day and each message to one call only.

create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;

select vault.create_secret('https://<project-ref>.supabase.co', 'steward_project_url');
select vault.create_secret('<service-role key>', 'steward_service_role_key');

-- With SMTP_URL set: the functions that record mail say "will be sent" rather than "kept in
-- the Outbox" from now on. Without SMTP, leave this out: the worker still runs the reminders
-- and writes every message, which then stays in the Outbox for the admins to read.
update private.mail_settings set delivery = 'smtp', updated_at = now();

select cron.schedule(
  'steward-mail-worker',
  '* * * * *',
  $$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets
            where name = 'steward_project_url') || '/functions/v1/mail-worker',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets
                                     where name = 'steward_service_role_key')),
    body := '{}'::jsonb,
    timeout_milliseconds := 150000
  ) as request_id
  $$
);

-- To stop:            select cron.unschedule('steward-mail-worker');
-- Recent runs:        select * from cron.job_run_details order by start_time desc limit 20;
-- Recent answers:     select status_code, content from net._http_response order by created desc limit 20;
-- Messages not sent:  select status, attempts, last_error, subject from public.outbox_messages
--                     where status <> 'sent' order by created_at desc;
