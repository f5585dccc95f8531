-- Documents: the organisation's files and their properties. The bytes live in the storage
-- bucket `documents` under `documents/{organization_id}/…` (see the storage migration);
-- `file_path` is that object name.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.documents (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint documents_name_length check (char_length(name) between 1 and 500),
  -- The specification's fixed list of 14 categories.
  category text not null
    constraint documents_category_check check (category in (
      'HR', 'Accounting', 'Branding', 'Social Media', 'Communications',
      'Volunteer/People Management', 'Streaming: Video & Podcast', 'Reports', 'Governance',
      'Legal', 'Funding', 'Financial', 'Operations', 'Other'
    )),
  expiry_date date,
  size bigint not null default 0 constraint documents_size_check check (size >= 0),
  -- Set to Active at upload; nothing changes it afterwards (specification §4).
  status text not null default 'Active' constraint documents_status_check check (status in ('Active')),
  -- Exactly one file directly inside the organisation's folder; never `.` or `..`.
  file_path text not null
    constraint documents_file_path_in_folder check (
      file_path ~ ('^documents/' || organization_id::text || '/[^/]+$')
      and split_part(file_path, '/', 3) not in ('.', '..')
      and char_length(file_path) <= 1024
    ),
  tags text[] not null default '{}'
    constraint documents_tags_check check (
      cardinality(tags) <= 100 and array_position(tags, null) is null
    ),
  description text constraint documents_description_length check (char_length(description) <= 10000),
  uploaded_by uuid default auth.uid() references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  upload_date timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- Listing newest first (and the policy's organisation filter), renewals by expiry, the category
-- filter, and tag containment (`tags=cs.{…}`). Name search is a substring ilike over one
-- organisation's rows, which the organisation index already narrows; pg_trgm would help more but
-- is not available on every backend this runs on (PGlite loads no extensions).
create index documents_organization_id_created_at_idx
  on public.documents (organization_id, created_at desc);
create index documents_organization_id_expiry_date_idx
  on public.documents (organization_id, expiry_date);
create index documents_organization_id_category_idx
  on public.documents (organization_id, category);
create index documents_tags_idx on public.documents using gin (tags);
create index documents_uploaded_by_idx on public.documents (uploaded_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger documents_touch_updated_at
  before update on public.documents
  for each row execute function private.touch_updated_at();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- The specification does not restrict document actions by role: every active member may read,
-- upload, edit and delete their organisation's documents.
alter table public.documents enable row level security;

create policy "members read their organisation's documents"
  on public.documents for select to authenticated
  using (organization_id = (select private.caller_organization_id()));

create policy "members add documents to their organisation"
  on public.documents for insert to authenticated
  with check (organization_id = (select private.caller_organization_id()));

create policy "members edit their organisation's documents"
  on public.documents for update to authenticated
  using (organization_id = (select private.caller_organization_id()))
  with check (organization_id = (select private.caller_organization_id()));

create policy "members delete their organisation's documents"
  on public.documents for delete to authenticated
  using (organization_id = (select private.caller_organization_id()));

-- ============================================================================================
-- Functions
-- ============================================================================================

-- The dashboard counters, computed over the caller's organisation. Expiry dates are calendar
-- dates compared with today's date in UTC: overdue = before today; expiring soon = today up to
-- and including today + 30 days.
create type public.document_stats_result as (
  total integer,
  expiring_soon integer,
  overdue integer,
  categories integer
);

create function public.document_stats()
returns public.document_stats_result
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _today date := (now() at time zone 'UTC')::date;
  _result public.document_stats_result;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select
    count(*)::integer,
    (count(*) filter (where d.expiry_date between _today and _today + 30))::integer,
    (count(*) filter (where d.expiry_date < _today))::integer,
    (count(distinct d.category))::integer
  into _result
  from public.documents d
  where d.organization_id = _organization_id;
  return _result;
end
$$;

-- Documents of the caller's organisation whose category or any tag contains `term`,
-- case-insensitively (the "Related Documents" card). strpos, not ilike: `%` and `_` in the
-- term are plain characters.
create function public.count_documents_matching(term text)
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _needle text := lower(coalesce(term, ''));
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return (
    select count(*)::integer
    from public.documents d
    where d.organization_id = _organization_id
      and (
        strpos(lower(d.category), _needle) > 0
        or exists (select 1 from unnest(d.tags) t (tag) where strpos(lower(t.tag), _needle) > 0)
      )
  );
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Members write the document's properties; its organisation, file, uploader and timestamps are
-- fixed at upload (insert) or by the server.
revoke all on public.documents from anon, authenticated;
grant select, delete on public.documents to authenticated;
grant insert (id, organization_id, name, category, expiry_date, size, status, file_path, tags,
  description) on public.documents to authenticated;
grant update (name, category, expiry_date, size, tags, description)
  on public.documents to authenticated;

revoke all on function public.document_stats() from public, anon, authenticated;
revoke all on function public.count_documents_matching(text) from public, anon, authenticated;
grant execute on function public.document_stats() to authenticated;
grant execute on function public.count_documents_matching(text) to authenticated;
