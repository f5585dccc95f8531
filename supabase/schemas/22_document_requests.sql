-- Document requests (issue 25, item 4): an admin asks named people for a document (each
-- volunteer's background-check certificate, each leader's first-aid certificate): a title,
-- instructions, the category and tags the document will get, whether an expiry date is
-- required, a due date. Each person gets a link of their own, e-mailed to them or handed out
-- by the admin; they upload through it without an account, and the document arrives in the
-- organisation with "Received through request …", their name and e-mail and the expiry date
-- they gave. The request shows who has sent theirs and who has not.
--
-- When a document received this way nears its expiry, the reminder run asks its sender for the
-- renewal with a new link of its own (unless the admin turned that off for the request): what
-- they send through it renews the document, which keeps the earlier file as a version, as
-- Renew does (10_renewals.sql).
--
-- The embedded server serves the links (server/requests/): the page's details and the upload,
-- which goes through the storage server's own file store and passes every bound of an upload
-- (the types the app accepts, checked on the bytes; the size; the organisation's quota, by the
-- trigger on storage.objects; uploads per client address and per organisation an hour). The
-- token is 244 random bits, returned once and stored only as its SHA-256, as invitation tokens
-- are; an e-mailed token leaves the stored message once it is sent.
--
-- A link works once, until its request is closed, and for `[requests] link_lifetime` after it
-- was made or sent again; and only while the request's maker is an active admin who may file
-- documents into the request's category (or edit the document a renewal renews). What arrives
-- is filed as the maker's: they are its responsible member.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.document_requests (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  created_by uuid references public.user_profiles (id) on delete set null,
  -- "Background-check certificate": also the start of each received document's name.
  title text not null
    constraint document_requests_title_length check (char_length(title) between 1 and 200),
  instructions text
    constraint document_requests_instructions_length check (char_length(instructions) <= 5000),
  -- What each received document gets.
  category text not null
    constraint document_requests_category_length check (char_length(category) between 1 and 100),
  tags text[] not null default '{}'
    constraint document_requests_tags_check check (
      cardinality(tags) <= 100 and array_position(tags, null) is null
    ),
  expiry_required boolean not null default false,
  due_date date,
  -- Whether the reminder run asks a sender for the renewal of what they sent.
  ask_for_renewal boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A closed request takes no more uploads.
  closed_at timestamptz,
  closed_by uuid references public.user_profiles (id) on delete set null
);

-- One person asked, with their own link.
create table public.document_request_recipients (
  id uuid primary key default gen_random_uuid(),
  request_id uuid not null references public.document_requests (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint document_request_recipients_name_length check (char_length(name) between 1 and 200),
  -- Null for a link the admin hands out.
  email text
    constraint document_request_recipients_email_check
      check (email is null or (email = lower(email) and private.is_email_address(email))),
  created_at timestamptz not null default now(),
  -- The link works until then (`[requests] link_lifetime` after it was made or sent again).
  link_expires_at timestamptz not null,
  -- When the link was last e-mailed (the message may be in the Outbox).
  sent_at timestamptz,
  -- A renewal: the document received earlier that this link renews, and its expiry date then.
  renews_document_id uuid references public.documents (id) on delete cascade,
  renews_expiry_date date,
  -- What arrived, and who sent it as they gave their name and e-mail.
  submitted_at timestamptz,
  document_id uuid references public.documents (id) on delete set null,
  submitter_name text
    constraint document_request_recipients_submitter_name_length
      check (char_length(submitter_name) between 1 and 200),
  submitter_email text
    constraint document_request_recipients_submitter_email_check
      check (submitter_email is null or private.is_email_address(submitter_email)),
  -- One renewal link per document and expiry date.
  constraint document_request_recipients_one_renewal unique (renews_document_id, renews_expiry_date)
);

-- The secret half of a link, kept out of the exposed schema.
create table private.document_request_tokens (
  recipient_id uuid primary key
    references public.document_request_recipients (id) on delete cascade,
  token_hash text not null unique
    constraint document_request_tokens_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$')
);

-- One row. The embedded server writes steward.toml's `[requests]` here at start-up.
create table private.document_request_settings (
  id boolean primary key default true constraint document_request_settings_one_row check (id),
  -- How long a link works after it is made or sent again (`link_lifetime`).
  link_lifetime interval not null default interval '30 days'
    constraint document_request_settings_link_lifetime_check check (link_lifetime > interval '0'),
  -- Documents one organisation may receive through requests in an hour
  -- (`uploads_per_organization_per_hour`).
  uploads_per_organization_per_hour integer not null default 200
    constraint document_request_settings_uploads_check check (uploads_per_organization_per_hour >= 1),
  updated_at timestamptz not null default now()
);
insert into private.document_request_settings default values;

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index document_requests_organization_id_created_at_idx
  on public.document_requests (organization_id, created_at desc);
create index document_requests_created_by_idx on public.document_requests (created_by);
create index document_requests_closed_by_idx on public.document_requests (closed_by);
create index document_request_recipients_request_id_idx
  on public.document_request_recipients (request_id, created_at);
create index document_request_recipients_organization_id_submitted_at_idx
  on public.document_request_recipients (organization_id, submitted_at);
create index document_request_recipients_document_id_idx
  on public.document_request_recipients (document_id);
-- An address is asked once per request (renewal links aside): asking again is "Send again".
create unique index document_request_recipients_one_per_email_idx
  on public.document_request_recipients (request_id, email)
  where email is not null and renews_document_id is null;

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger document_requests_touch_updated_at
  before update on public.document_requests
  for each row execute function private.touch_updated_at();

-- Whether a member may file a new document into `category` of `organization_id`: an active
-- member of the organisation who may edit in that category (issue 23's access per category,
-- `private.member_category_access`), which is one of the organisation's own and not retired.
create function private.member_may_file_document(user_id uuid, organization_id uuid, category text)
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

-- Whether a request takes uploads: it is open, and its maker is an active admin who may file
-- documents into its category, or for a renewal edit the document it renews (`renews`), which
-- is not in the trash.
create function private.document_request_takes_uploads(request_id uuid, renews uuid)
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

-- Whether a recipient's link works now (see the top of this file).
create function private.document_request_link_works(recipient public.document_request_recipients)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select recipient.submitted_at is null
     and recipient.link_expires_at > now()
     and private.document_request_takes_uploads(recipient.request_id, recipient.renews_document_id)
$$;

-- Trimmed tags, blanks dropped, each once (case-insensitively), as the app stores them.
create function private.clean_tags(tags text[])
returns text[]
language sql
immutable
set search_path = ''
as $$
  select coalesce(array(
    select (array_agg(private.trim_whitespace(t) order by n))[1]
    from unnest(clean_tags.tags) with ordinality u (t, n)
    where private.trim_whitespace(t) <> ''
    group by lower(private.trim_whitespace(t)) order by min(n)), '{}')
$$;

create type public.document_request_link as (
  request_id uuid,
  recipient_id uuid,
  name text,
  email text,
  -- The link's secret; returned only here, once.
  token text,
  -- `queued` or `outbox` when it was e-mailed, null when the admin hands the link out.
  mail_status text
);

-- Gives a recipient a new link (replacing any earlier one, which stops working), e-mails it
-- when they have an address, and returns it. The e-mail takes its recipient from the
-- organisation's and the installation's allowances (05_mail.sql): past one, PT429.
create function private.issue_document_request_link(recipient_id uuid, sender uuid)
returns public.document_request_link
language plpgsql
security definer
set search_path = ''
as $$
declare
  _recipient public.document_request_recipients;
  _request public.document_requests;
  _maker public.user_profiles;
  _organization_name text;
  _lifetime interval := (select s.link_lifetime from private.document_request_settings s);
  _token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  _mail_id uuid;
  _status text;
  _renewed public.documents;
begin
  update public.document_request_recipients r
  set link_expires_at = now() + _lifetime
  where r.id = issue_document_request_link.recipient_id
  returning r.* into _recipient;
  insert into private.document_request_tokens (recipient_id, token_hash)
  values (_recipient.id, private.hash_invitation_token(_token))
  on conflict on constraint document_request_tokens_pkey
    do update set token_hash = excluded.token_hash;
  if _recipient.email is null then
    return (_recipient.request_id, _recipient.id, _recipient.name, null, _token, null)
      ::public.document_request_link;
  end if;

  select * into _request from public.document_requests q where q.id = _recipient.request_id;
  select * into _maker from public.user_profiles p
  where p.id = coalesce(issue_document_request_link.sender, _request.created_by);
  select o.name into _organization_name from public.organizations o
  where o.id = _request.organization_id;
  select * into _renewed from public.documents d where d.id = _recipient.renews_document_id;
  _mail_id := private.queue_mail(
    _request.organization_id, 'document_request', array[_recipient.email],
    case when _renewed.id is null
         then format('%s asks you for a document: %s', _organization_name, _request.title)
         else format('%s asks you for the renewal of %s', _organization_name, _request.title)
    end,
    jsonb_build_object(
      'token', _token,
      'recipient_name', _recipient.name,
      'organization_name', _organization_name,
      'requester_name', private.display_name(_maker),
      'requester_email', _maker.email,
      'title', _request.title,
      'instructions', _request.instructions,
      'due_date', _request.due_date,
      'expiry_required', _request.expiry_required or _renewed.id is not null,
      'renewal', _renewed.id is not null,
      'expiry_date', _renewed.expiry_date,
      'link_expires_at', _recipient.link_expires_at),
    '[]'::jsonb, issue_document_request_link.sender);
  select m.status into _status from public.outbox_messages m where m.id = _mail_id;
  update public.document_request_recipients r set sent_at = now() where r.id = _recipient.id;
  return (_recipient.request_id, _recipient.id, _recipient.name, _recipient.email, _token, _status)
    ::public.document_request_link;
end
$$;

-- Adds the people of `recipients` (a JSON array of {"name", "email"}; e-mail optional) to the
-- caller's open request, each with a link; the caller must be an admin of its organisation.
create function private.add_document_request_recipients(
  me public.user_profiles,
  request public.document_requests,
  recipients jsonb
)
returns setof public.document_request_link
language plpgsql
security definer
set search_path = ''
as $$
declare
  _person jsonb;
  _name text;
  _email text;
  _id uuid;
  _lifetime interval := (select s.link_lifetime from private.document_request_settings s);
begin
  if jsonb_typeof(recipients) is distinct from 'array'
     or jsonb_array_length(recipients) not between 1 and 100 then
    raise exception 'Add between 1 and 100 people';
  end if;
  for _person in select x from jsonb_array_elements(recipients) x loop
    if jsonb_typeof(_person) <> 'object' then
      raise exception 'Each person needs a name';
    end if;
    _name := private.trim_whitespace(coalesce(_person ->> 'name', ''));
    _email := nullif(lower(private.trim_whitespace(coalesce(_person ->> 'email', ''))), '');
    if _name = '' then
      raise exception 'Each person needs a name';
    end if;
    if char_length(_name) > 200 then
      raise exception 'A name must be at most 200 characters';
    end if;
    if _email is not null and not private.is_email_address(_email) then
      raise exception 'Invalid email address: %', left(_email, 254);
    end if;
    if _email is not null and exists (
      select 1 from public.document_request_recipients r
      where r.request_id = request.id and r.email = _email and r.renews_document_id is null
    ) then
      raise exception '% has already been asked for this document; send the link again instead',
        _email;
    end if;
    insert into public.document_request_recipients
      (request_id, organization_id, name, email, link_expires_at)
    values (request.id, request.organization_id, _name, _email, now() + _lifetime)
    returning id into _id;
    return next private.issue_document_request_link(_id, me.id);
  end loop;
end
$$;

-- The caller as an admin of an organisation, or the refusal.
create function private.request_admin()
returns public.user_profiles
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can request documents';
  end if;
  return _me;
end
$$;

-- What a person sending through a link gives, checked: their name, their e-mail (the address
-- the link was sent to, when it was), and the expiry date (required by the request, and for a
-- renewal). Returns the name and e-mail as they are kept.
create function private.requested_document_sender(
  recipient public.document_request_recipients,
  request public.document_requests,
  submitter_name text,
  submitter_email text,
  expiry_date date
)
returns table (name text, email text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _name text := private.trim_whitespace(coalesce(submitter_name, ''));
  _email text := coalesce(recipient.email,
                          nullif(lower(private.trim_whitespace(coalesce(submitter_email, ''))), ''));
begin
  if _name = '' then
    raise exception 'Please enter your name';
  end if;
  if char_length(_name) > 200 then
    raise exception 'Your name must be at most 200 characters';
  end if;
  if _email is not null and not private.is_email_address(_email) then
    raise exception 'Please enter a valid e-mail address';
  end if;
  if expiry_date is null and (request.expiry_required or recipient.renews_document_id is not null) then
    raise exception 'Please enter the expiry date';
  end if;
  if expiry_date not between date '1900-01-01' and date '9999-12-31' then
    raise exception 'Expiry date must be between 1900 and 9999';
  end if;
  return query select _name, _email;
end
$$;

-- The request and recipient of a working link, locked when `lock`, or the refusal (P0002, so
-- that the server answers 404).
create function private.document_request_by_token(token text)
returns public.document_request_recipients
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _recipient public.document_request_recipients;
begin
  select r.* into _recipient
  from private.document_request_tokens t
  join public.document_request_recipients r on r.id = t.recipient_id
  where t.token_hash = private.hash_invitation_token(
          left(coalesce(document_request_by_token.token, ''), 200));
  if not found or not private.document_request_link_works(_recipient) then
    raise exception 'This link no longer works. Please ask whoever sent it for a new one.'
      using errcode = 'P0002';
  end if;
  return _recipient;
end
$$;

-- What the upload page of a link shows: who asks, for what, and what to give. Called by the
-- embedded server's `GET /requests/v1/{token}`; raises the refusal (P0002) for a link that
-- does not work.
create function private.document_request_page(token text)
returns table (
  organization_name text,
  requested_by text,
  title text,
  instructions text,
  expiry_required boolean,
  due_date date,
  recipient_name text,
  recipient_email text,
  renews_document_name text,
  renews_expiry_date date,
  link_expires_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _recipient public.document_request_recipients := private.document_request_by_token(token);
begin
  return query
    select o.name, private.display_name(maker), q.title, q.instructions,
           q.expiry_required or _recipient.renews_document_id is not null, q.due_date,
           _recipient.name, _recipient.email, d.name, _recipient.renews_expiry_date,
           _recipient.link_expires_at
    from public.document_requests q
    join public.organizations o on o.id = q.organization_id
    left join public.user_profiles maker on maker.id = q.created_by
    left join public.documents d on d.id = _recipient.renews_document_id
    where q.id = _recipient.request_id;
end
$$;

-- Checks an upload through a link before its bytes are read: the link works, what the person
-- gave is valid, and the organisation has not received too many documents this hour. Returns
-- the organisation (whose folder the file goes to) and the bytes its quota still has room for.
create function private.check_requested_document(
  token text,
  submitter_name text,
  submitter_email text,
  expiry_date date
)
returns table (organization_id uuid, room bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _recipient public.document_request_recipients := private.document_request_by_token(token);
  _request public.document_requests;
  _settings private.document_request_settings;
begin
  select * into _request from public.document_requests q where q.id = _recipient.request_id;
  perform private.requested_document_sender(_recipient, _request, submitter_name,
                                            submitter_email, expiry_date);
  select * into _settings from private.document_request_settings;
  if (select count(*) from public.document_request_recipients r
      where r.organization_id = _request.organization_id
        and r.submitted_at > now() - interval '1 hour')
     >= _settings.uploads_per_organization_per_hour then
    raise exception using errcode = 'PT429', message =
      'This organization has received too many documents in the last hour. Please try again later.';
  end if;
  return query
    select _request.organization_id, r.room
    from private.organization_storage_room(_request.organization_id) r;
end
$$;

-- The upload of a link, in the transaction that adds its file (`file_path`, already in the
-- organisation's folder): a new document, named after the request and the sender, in the
-- request's category with its tags and the expiry date given, with "Received through request
-- …" in its description; or for a renewal link, the renewal of the document received earlier
-- (its file kept as a version). The link is used up. The history names the sender. Returns the
-- document.
create function private.receive_requested_document(
  token text,
  file_path text,
  file_name text,
  submitter_name text,
  submitter_email text,
  expiry_date date
)
returns table (document_id uuid, document_name text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  _recipient public.document_request_recipients;
  _request public.document_requests;
  _sender record;
  _file storage.objects;
  _document public.documents;
  _extension text := coalesce(substring(receive_requested_document.file_name from '(\.[A-Za-z0-9]{1,10})$'), '');
  _next integer;
begin
  _recipient := private.document_request_by_token(token);
  select r.* into _recipient from public.document_request_recipients r
  where r.id = _recipient.id for update;
  if not private.document_request_link_works(_recipient) then
    raise exception 'This link no longer works. Please ask whoever sent it for a new one.'
      using errcode = 'P0002';
  end if;
  select * into _request from public.document_requests q where q.id = _recipient.request_id;
  select * into _sender from private.requested_document_sender(_recipient, _request,
    submitter_name, submitter_email, expiry_date);
  perform set_config('steward.actor_name',
    format('%s%s (through a request)', _sender.name,
           case when _sender.email is not null then format(' <%s>', _sender.email) else '' end),
    true);

  if _recipient.renews_document_id is null then
    _file := private.claim_new_document_file(_request.organization_id, null, file_path);
    insert into public.documents as d
      (organization_id, name, category, expiry_date, size, file_path, tags, description,
       responsible_id, uploaded_by)
    values (
      _request.organization_id,
      left(format('%s – %s', _request.title, _sender.name), 480) || lower(_extension),
      _request.category, expiry_date, (_file.metadata ->> 'size')::bigint, file_path,
      _request.tags,
      format('Received through request “%s” from %s%s.', _request.title, _sender.name,
             case when _sender.email is not null then format(' <%s>', _sender.email) else '' end),
      _request.created_by, null)
    returning d.* into _document;
  else
    select d.* into _document from public.documents d
    where d.id = _recipient.renews_document_id and d.deleted_at is null for update;
    _file := private.claim_new_document_file(_document.organization_id, _document.file_path,
                                             file_path);
    -- As renew_document (10_renewals.sql) keeps the file it replaces, for a sender who is no
    -- member: the version is superseded by nobody of the organisation.
    select coalesce(max(v.version_number), 0) + 1 into _next
    from public.document_versions v where v.document_id = _document.id;
    insert into public.document_versions
      (document_id, organization_id, version_number, change, file_path, size, name, expiry_date,
       properties, uploaded_by, uploaded_at, replaced_by)
    values
      (_document.id, _document.organization_id, _next, 'renewal', _document.file_path,
       _document.size, _document.name, _document.expiry_date,
       jsonb_build_object('name', _document.name, 'category', _document.category,
                          'tags', to_jsonb(_document.tags), 'description', _document.description,
                          'expiry_date', _document.expiry_date),
       _document.uploaded_by, _document.upload_date, null);
    update public.documents d
    set file_path = receive_requested_document.file_path,
        size = (_file.metadata ->> 'size')::bigint,
        content_sha256 = private.object_sha256(_file.metadata, _file.user_metadata),
        expiry_date = receive_requested_document.expiry_date,
        upload_date = now(),
        uploaded_by = null,
        renewal_in_progress = false,
        renewal_note = null
    where d.id = _document.id
    returning d.* into _document;
  end if;

  update public.document_request_recipients r
  set submitted_at = now(), document_id = _document.id,
      submitter_name = _sender.name, submitter_email = _sender.email
  where r.id = _recipient.id;
  delete from private.document_request_tokens t where t.recipient_id = _recipient.id;
  perform private.log_activity(_request.organization_id, 'document.received', _document.id,
    _document.name,
    jsonb_build_object('request_id', _request.id, 'title', _request.title,
                       'submitter_name', _sender.name, 'submitter_email', _sender.email,
                       'renewal', _recipient.renews_document_id is not null));
  perform set_config('steward.actor_name', '', true);
  return query select _document.id, _document.name;
end
$$;

-- The reminder run's part (11_reminders.sql): documents received through an open request that
-- asks for renewals, within the organisation's first reminder threshold of their expiry date
-- (or past it) on `local_date`, whose sender gave an e-mail address, get a renewal link e-mailed
-- to the sender, once per document and expiry date. A renewal the allowances refuse today
-- (PT429) is asked for at the next run. Returns how many were asked for.
create function private.ask_senders_for_renewals(organization_id uuid, local_date date)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _settings public.reminder_settings :=
    private.reminder_settings_of(ask_senders_for_renewals.organization_id);
  _reach integer := (select max(d) from unnest(_settings.days_before) d);
  _due record;
  _id uuid;
  _asked integer := 0;
begin
  if _reach is null then
    return 0;
  end if;
  for _due in
    select distinct on (d.id) d.id as document_id, d.expiry_date, r.request_id,
           r.submitter_name, r.submitter_email
    from public.document_request_recipients r
    join public.document_requests q on q.id = r.request_id
    join public.documents d on d.id = r.document_id
    where r.organization_id = ask_senders_for_renewals.organization_id
      and r.submitted_at is not null
      and r.submitter_email is not null
      and q.closed_at is null
      and q.ask_for_renewal
      and d.deleted_at is null
      and not d.renewal_in_progress
      and d.expiry_date <= ask_senders_for_renewals.local_date + _reach
      and not exists (
        select 1 from public.document_request_recipients x
        where x.renews_document_id = d.id and x.renews_expiry_date = d.expiry_date
      )
      and private.document_request_takes_uploads(q.id, d.id)
    order by d.id, r.submitted_at desc
  loop
    begin
      insert into public.document_request_recipients
        (request_id, organization_id, name, email, link_expires_at, renews_document_id,
         renews_expiry_date)
      values (_due.request_id, ask_senders_for_renewals.organization_id, _due.submitter_name,
              lower(_due.submitter_email), now(), _due.document_id, _due.expiry_date)
      returning id into _id;
      perform private.issue_document_request_link(_id, null);
      _asked := _asked + 1;
    exception when sqlstate 'PT429' then
      -- The allowances are spent for now: nothing of this renewal is kept; the next run asks.
      null;
    end;
  end loop;
  return _asked;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.document_requests enable row level security;
alter table public.document_request_recipients enable row level security;
alter table private.document_request_tokens enable row level security;
alter table private.document_request_settings enable row level security;

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

-- No insert, update or delete policies: requests change through the functions below.

-- The second-factor rule of 20_second_factor.sql for this file's tables, which that file (it
-- runs first) cannot name.
create policy "second factor proved when enrolled or required"
  on public.document_requests as restrictive for all to authenticated
  using ((select private.second_factor_checked()))
  with check ((select private.second_factor_checked()));

create policy "second factor proved when enrolled or required"
  on public.document_request_recipients as restrictive for all to authenticated
  using ((select private.second_factor_checked()))
  with check ((select private.second_factor_checked()));

-- ============================================================================================
-- Functions
-- ============================================================================================
-- An admin asks people for a document: the request, and a link for each person (see
-- private.add_document_request_recipients). Returns the links, each once.
create function public.create_document_request(
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

-- An admin asks more people for the same document.
create function public.add_document_request_recipients(request_id uuid, recipients jsonb)
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

-- An admin gives a person who has not sent theirs a new link (the old one stops working),
-- e-mailed again when they have an address.
create function public.resend_document_request(recipient_id uuid)
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

-- An admin closes a request: its links stop working.
create function public.close_document_request(request_id uuid)
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

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.document_requests, public.document_request_recipients
  from anon, authenticated;
grant select on public.document_requests, public.document_request_recipients to authenticated;
revoke all on private.document_request_tokens from public, anon, authenticated, service_role;
revoke all on private.document_request_settings from public, anon, authenticated, service_role;

revoke all on function private.member_may_file_document(uuid, uuid, text)
  from public, anon, authenticated;
revoke all on function private.document_request_takes_uploads(uuid, uuid)
  from public, anon, authenticated;
revoke all on function private.document_request_link_works(public.document_request_recipients)
  from public, anon, authenticated;
revoke all on function private.clean_tags(text[]) from public, anon, authenticated;
revoke all on function private.issue_document_request_link(uuid, uuid)
  from public, anon, authenticated;
revoke all on function private.add_document_request_recipients(
  public.user_profiles, public.document_requests, jsonb) from public, anon, authenticated;
revoke all on function private.request_admin() from public, anon, authenticated;
revoke all on function private.requested_document_sender(
  public.document_request_recipients, public.document_requests, text, text, date)
  from public, anon, authenticated;
revoke all on function private.document_request_by_token(text) from public, anon, authenticated;
revoke all on function private.document_request_page(text) from public, anon, authenticated;
revoke all on function private.check_requested_document(text, text, text, date)
  from public, anon, authenticated;
revoke all on function private.receive_requested_document(text, text, text, text, text, date)
  from public, anon, authenticated;
revoke all on function private.ask_senders_for_renewals(uuid, date)
  from public, anon, authenticated;
revoke all on function public.create_document_request(
  text, text, text, text[], boolean, date, boolean, jsonb) from public, anon, authenticated;
revoke all on function public.add_document_request_recipients(uuid, jsonb)
  from public, anon, authenticated;
revoke all on function public.resend_document_request(uuid) from public, anon, authenticated;
revoke all on function public.close_document_request(uuid) from public, anon, authenticated;
grant execute on function public.create_document_request(
  text, text, text, text[], boolean, date, boolean, jsonb) to authenticated;
grant execute on function public.add_document_request_recipients(uuid, jsonb) to authenticated;
grant execute on function public.resend_document_request(uuid) to authenticated;
grant execute on function public.close_document_request(uuid) to authenticated;
