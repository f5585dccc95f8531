-- Share links and document requests follow the access per category (issues 23 and 25 together).
-- Migration 20261128002600 created `private.member_may_view_document` and
-- `member_may_edit_document` with the organisation-only rule where issue 23's migration had not
-- made them yet, and 20261128002601 `private.member_may_file_document` with the fixed list of
-- categories: a database that ran those before 20261128003000, or any of them, could keep a
-- rule that lets a member share a document of a restricted category, or ask outsiders for
-- documents into one, without that category's access. Here the three take the category rule
-- (see supabase/schemas/03_documents.sql and 22_document_requests.sql, where each is defined
-- once), and the functions that relied on the old rule's "not in the trash" say so themselves.
-- `private.run_reminders` of 20261128002601 (which asks senders for renewals) replaced issue
-- 23's (which tells nobody of a document they may not view): here it does both.

create or replace function private.member_may_view_document(user_id uuid, document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.documents d
      join private.member_category_access(member_may_view_document.user_id) a
        on a.name = d.category
      join public.user_profiles p on p.id = member_may_view_document.user_id
     where d.id = member_may_view_document.document_id
       and d.organization_id = p.organization_id
       and a.can_view)
$$;

create or replace function private.member_may_edit_document(user_id uuid, document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.documents d
      join private.member_category_access(member_may_edit_document.user_id) a
        on a.name = d.category
      join public.user_profiles p on p.id = member_may_edit_document.user_id
     where d.id = member_may_edit_document.document_id
       and d.organization_id = p.organization_id
       and a.can_edit)
$$;

create or replace function private.member_may_file_document(user_id uuid, organization_id uuid, category text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from private.member_category_access(member_may_file_document.user_id) a
    join public.user_profiles p on p.id = member_may_file_document.user_id
    where p.organization_id = member_may_file_document.organization_id
      and a.name = member_may_file_document.category
      and a.can_edit
      and not a.retired
  )
$$;

create or replace function private.document_request_takes_uploads(request_id uuid, renews uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.document_requests q
    join public.user_profiles maker
      on maker.id = q.created_by and maker.organization_id = q.organization_id
    where q.id = document_request_takes_uploads.request_id
      and q.closed_at is null
      and maker.is_active
      and private.role_rank(maker.role) >= private.role_rank('admin')
      and case when document_request_takes_uploads.renews is null
               then private.member_may_file_document(maker.id, q.organization_id, q.category)
               else private.member_may_edit_document(maker.id, document_request_takes_uploads.renews)
                    and exists (select 1 from public.documents d
                                where d.id = document_request_takes_uploads.renews
                                  and d.deleted_at is null)
          end
  )
$$;

create or replace function private.create_share_link(
  document_id uuid,
  expires_at timestamptz,
  label text,
  password_hash text
)
returns table (link_id uuid, token text, link_expires_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _settings private.share_link_settings;
  _document public.documents;
  _label text := nullif(private.trim_whitespace(create_share_link.label), '');
  _expires timestamptz;
  -- Two version-4 UUIDs: 2 × 122 random bits from the server's cryptographic generator.
  _token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  _link public.share_links;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('user') then
    raise exception 'Insufficient permissions to share documents';
  end if;
  select * into _document from public.documents d
  where d.id = create_share_link.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null;
  if not found or not private.member_may_view_document(_me.id, _document.id) then
    raise exception 'Document not found';
  end if;
  select * into _settings from private.share_link_settings;
  _expires := coalesce(create_share_link.expires_at, now() + _settings.default_expiry);
  if _expires <= now() then
    raise exception 'The link must expire in the future';
  end if;
  -- A minute's grace: a date picked in the app is "now + n days" a moment before it arrives.
  if _expires > now() + _settings.max_expiry + interval '1 minute' then
    raise exception 'A share link can last at most %', private.interval_text(_settings.max_expiry);
  end if;
  if char_length(_label) > 200 then
    raise exception 'The note must be at most 200 characters';
  end if;
  if create_share_link.password_hash is not null
     and create_share_link.password_hash !~ '^\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$' then
    raise exception 'The password could not be stored';
  end if;
  -- A bound per organisation, so that a stolen session cannot hand out the library.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('share links ' || _me.organization_id, 7305));
  if (select count(*) from public.share_links l
      where l.organization_id = _me.organization_id
        and l.created_at > now() - interval '1 hour') >= _settings.links_per_hour then
    raise exception using errcode = 'PT429', message = format(
      'Your organization may make at most %s share links an hour. Please try again later.',
      _settings.links_per_hour);
  end if;

  insert into public.share_links as l
    (organization_id, document_id, created_by, label, expires_at, password_protected)
  values (_me.organization_id, _document.id, _me.id, _label, _expires,
          create_share_link.password_hash is not null)
  returning l.* into _link;
  insert into private.share_link_secrets (share_link_id, token_hash, password_hash)
  values (_link.id, private.hash_invitation_token(_token), create_share_link.password_hash);
  perform private.log_activity(_me.organization_id, 'document.link_created', _document.id,
    _document.name,
    jsonb_build_object('link_id', _link.id, 'label', _label, 'expires_at', _expires,
                       'password', create_share_link.password_hash is not null));
  return query select _link.id, _token, _link.expires_at;
end
$$;

create or replace function public.create_document_request(
  title text,
  instructions text,
  category text,
  tags text[],
  expiry_required boolean,
  due_date date,
  ask_for_renewal boolean,
  recipients jsonb
)
returns setof public.document_request_link
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.request_admin();
  _title text := private.trim_whitespace(coalesce(create_document_request.title, ''));
  _instructions text := nullif(private.trim_whitespace(create_document_request.instructions), '');
  _tags text[] := private.clean_tags(coalesce(create_document_request.tags, '{}'));
  _category record;
  _request public.document_requests;
begin
  if _title = '' then
    raise exception 'Title is required';
  end if;
  if char_length(_title) > 200 then
    raise exception 'Title must be at most 200 characters';
  end if;
  if char_length(_instructions) > 5000 then
    raise exception 'Instructions must be at most 5000 characters';
  end if;
  -- The organisation's categories are not secret; what is filed into one needs its edit access.
  select * into _category from private.member_category_access(_me.id) a
  where a.name = coalesce(create_document_request.category, '');
  if not found then
    raise exception 'Choose one of the categories';
  end if;
  if _category.retired then
    raise exception 'This category is retired' using errcode = '23514';
  end if;
  if not private.member_may_file_document(_me.id, _me.organization_id, _category.name) then
    raise exception 'You do not have access to this category' using errcode = '42501';
  end if;
  if cardinality(_tags) > 100 then
    raise exception 'A document can have at most 100 tags';
  end if;
  if create_document_request.due_date < (now() at time zone 'UTC')::date - 1
     or create_document_request.due_date > date '9999-12-31' then
    raise exception 'The due date must be today or later';
  end if;

  insert into public.document_requests as q
    (organization_id, created_by, title, instructions, category, tags, expiry_required, due_date,
     ask_for_renewal)
  values (_me.organization_id, _me.id, _title, _instructions, create_document_request.category,
          _tags, coalesce(create_document_request.expiry_required, false),
          create_document_request.due_date,
          coalesce(create_document_request.ask_for_renewal, true))
  returning q.* into _request;
  return query
    select * from private.add_document_request_recipients(_me, _request,
                                                          create_document_request.recipients);
end
$$;

create or replace function private.run_reminders(organization_id uuid, local_date date)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _settings public.reminder_settings := private.reminder_settings_of(run_reminders.organization_id);
  _organization_name text;
  _recipient record;
  _digests integer := 0;
begin
  insert into private.reminder_runs as r (organization_id, local_date)
  values (run_reminders.organization_id, run_reminders.local_date)
  on conflict do nothing;
  if not found then
    return 0;
  end if;
  select o.name into _organization_name from public.organizations o
  where o.id = run_reminders.organization_id;

  -- The documents whose threshold fires now: logged once per cycle. (Qualified with pg_temp:
  -- the temporary schema must never stand in for another relation of this function.)
  create temporary table _fired (
    id uuid, name text, category text, expiry_date date, responsible_id uuid,
    days_left integer, threshold text
  ) on commit drop;
  with due as (
    select d.id, d.name, d.category, d.expiry_date, d.responsible_id,
           d.expiry_date - run_reminders.local_date as days_left,
           private.reminder_threshold(d.expiry_date - run_reminders.local_date,
                                      _settings.days_before, _settings.remind_overdue) as threshold
    from public.documents d
    where d.organization_id = run_reminders.organization_id
      and d.expiry_date is not null
      and not d.renewal_in_progress
      and d.deleted_at is null
  ), logged as (
    insert into private.reminder_log as l
      (document_id, expiry_date, threshold, organization_id, local_date)
    select due.id, due.expiry_date, due.threshold, run_reminders.organization_id,
           run_reminders.local_date
    from due where due.threshold is not null
    on conflict do nothing
    returning l.document_id
  )
  insert into pg_temp._fired
  select due.* from due join logged on logged.document_id = due.id;

  -- Who hears of each: the responsible member while an active member of the organisation who
  -- may view it (else the admins), the admins, or both; never someone who turned reminders off,
  -- and nobody of a document they may not view (a restricted category's, issue 23).
  for _recipient in
    with members as (
      -- With the categories each may not view, read once per member.
      select p.id, p.email, p.full_name, p.role, p.email_reminders,
             array(select a.name from private.member_category_access(p.id) a
                    where not a.can_view) as hidden
      from public.user_profiles p
      where p.organization_id = run_reminders.organization_id and p.is_active
    ), admins as (
      select m.id from members m where m.role in ('admin', 'master_admin')
    ), candidates as (
      select f.id as document_id, m.id as user_id
      from pg_temp._fired f join members m on m.id = f.responsible_id
      where _settings.recipients in ('responsible', 'both')
      union
      select f.id, a.id
      from pg_temp._fired f cross join admins a
      where _settings.recipients in ('admins', 'both')
         or (_settings.recipients = 'responsible'
             and not exists (select 1 from members m where m.id = f.responsible_id
                              and f.category <> all (m.hidden)))
    ), addressed as (
      select c.document_id, c.user_id
      from candidates c
      join members m on m.id = c.user_id
      join pg_temp._fired f on f.id = c.document_id
      where f.category <> all (m.hidden)
    )
    select m.id, m.email, m.full_name,
           count(*)::integer as total,
           (count(*) filter (where f.days_left < 0))::integer as overdue,
           (select jsonb_agg(jsonb_build_object(
                     'id', x.id, 'name', x.name, 'category', x.category,
                     'expiry_date', x.expiry_date, 'days_left', x.days_left,
                     'threshold', x.threshold) order by x.expiry_date, x.name)
            from (
              select f2.* from addressed a2 join pg_temp._fired f2 on f2.id = a2.document_id
              where a2.user_id = m.id order by f2.expiry_date, f2.name limit 100
            ) x) as items
    from addressed a
    join members m on m.id = a.user_id and m.email_reminders
    join pg_temp._fired f on f.id = a.document_id
    where private.is_email_address(m.email)
    group by m.id, m.email, m.full_name
  loop
    if private.queue_mail(
         run_reminders.organization_id, 'reminders', array[_recipient.email],
         format('Renewals at %s: %s', _organization_name, array_to_string(array[
           case when _recipient.overdue > 0 then _recipient.overdue || ' overdue' end,
           case when _recipient.total > _recipient.overdue
                then (_recipient.total - _recipient.overdue) || ' expiring soon' end], ', ')),
         jsonb_build_object(
           'recipient_name', coalesce(nullif(private.trim_whitespace(_recipient.full_name), ''),
                                      _recipient.email),
           'organization_name', _organization_name,
           'local_date', run_reminders.local_date,
           'total', _recipient.total,
           'overdue', _recipient.overdue,
           'items', _recipient.items),
         '[]'::jsonb, null,
         format('reminders:%s:%s', _recipient.id, run_reminders.local_date)) is not null then
      _digests := _digests + 1;
    end if;
  end loop;

  drop table pg_temp._fired;
  update private.reminder_runs r set digests = _digests
  where r.organization_id = run_reminders.organization_id and r.local_date = run_reminders.local_date;
  -- Documents received through a request: their senders are asked for the renewal
  -- (22_document_requests.sql).
  perform private.ask_senders_for_renewals(run_reminders.organization_id, run_reminders.local_date);
  return _digests;
end
$$;
