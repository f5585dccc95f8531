-- Search and list the organisation's documents one page at a time (issue 13): full-text search
-- over name, tags, category, description and the text inside the file (13_document_texts.sql),
-- with qualifiers, filters, every sort order, and the total count. The app's document lists all
-- come from here.
--
-- Searching inside files at 100,000 documents: as a security-invoker function the search read
-- every text of the organisation: row-level security keeps a caller's conditions behind the
-- policy's, and `@@` is not leakproof, so PostgreSQL may not search the GIN index of
-- document_texts with it; it scanned the organisation's texts one by one (1 s at 100,000
-- documents, against 2 ms through the index). search_documents therefore runs as its owner and
-- applies the documents policy's condition itself (the caller's organisation, nothing in the
-- trash), so every index is usable and each statement is planned with its real values. The text
-- of each document is read for the page's rows only.
--
-- Searching for words that match most of a large library: a word typed so far as "b" matches
-- every document, and counting and ranking 100,000 matches took 0.4 s on PostgreSQL 15 (count
-- 339 ms, ranking 73 ms; the page itself, newest first, 0.2 ms). The count of words' matches
-- stops at a limit, and past it the page is the newest matches. Without words or filters the
-- total is the organisation's counter (private.document_counts, 03_documents.sql).
--
-- The sort orders' indexes are those of public.documents (03_documents.sql).

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.document_search_result as (
  id uuid,
  organization_id uuid,
  name text,
  category text,
  expiry_date date,
  size bigint,
  status text,
  file_path text,
  tags text[],
  description text,
  uploaded_by uuid,
  uploader_name text,
  created_at timestamptz,
  upload_date timestamptz,
  updated_at timestamptz,
  -- pending ("Indexing…"), ready, failed or unavailable ("Text not available"), and why.
  text_state text,
  text_reason text,
  -- Where the words were found in the description or text, each word between <mark> and
  -- </mark>; null when they are not there (or only in the name, tags or category).
  snippet text,
  rank real,
  -- All documents that match, on every row of the page (at most `count_limit`, see below).
  total_count bigint,
  -- Who looks after each document and whether its renewal is under way (issue 14).
  responsible_id uuid,
  responsible_name text,
  renewal_in_progress boolean,
  renewal_note text,
  -- Whether `total_count` stopped at the limit ("more than 10,000").
  total_capped boolean
);

-- One page of the caller's organisation's documents.
--
-- `search` is what the search box holds: words (stemmed, and the last one also as a prefix
-- while it is being typed), "quoted phrases", `or`, `-word` (websearch_to_tsquery), and the
-- qualifiers `tag:x`, `category:x` (both case-insensitive; `"…"` for values with spaces) and
-- `expires:` followed by a date (`expires:<2027-01-01`, also `<=`, `>`, `>=`, `=`) or one of
-- overdue, soon, later, none. The filters narrow further: `expiry_filter` is overdue (before
-- today, UTC), soon (today to today + 30 days), later or none; `section_category` and
-- `section_tags` keep the documents of a category page (that category, or any of those tags),
-- and `section_categories` those of a department page (any of its categories or tags).
-- `sort_by`: relevance (the default with words), upload_date (the default without), name,
-- category, expiry_date, size, status; `sort_descending` null takes each order's natural
-- direction. Security definer: every statement keeps to the caller's organisation and leaves
-- the trash out, as the documents policy does; a caller without one gets no rows.
--
-- Words are counted up to `count_limit` matches (at most, and by default, 10,000): past it
-- `total_count` is the limit and `total_capped` true ("more than 10,000"), and the page is the
-- newest first, since ranking every match of a word typed so far as "b" would cost more than it
-- tells. Without words the total is exact (the counter, or a count of the filter's matches).
create function public.search_documents(
  search text default null,
  category_filter text default null,
  tag_filter text default null,
  expiry_filter text default null,
  uploaded_by_filter uuid default null,
  section_category text default null,
  section_tags text[] default null,
  sort_by text default null,
  sort_descending boolean default null,
  page_offset integer default 0,
  page_size integer default 50,
  count_limit integer default 10000,
  section_categories text[] default null
)
returns setof public.document_search_result
language plpgsql
stable
security definer
set search_path = ''
-- The data of the embedded database is in memory and PostgreSQL's usually on SSD: reading a
-- page at random costs about what reading the next one does. With the default (4) the planner
-- scans every text of a large organisation rather than fetch the few hundred rows the search
-- index points at.
set random_page_cost = 1.1
as $$
declare
  -- A qualifier: its name, then a "quoted value" or a bare one.
  _qualifier constant text := '(^|\s)(tag|category|expires):("([^"]*)"?|([^\s"]*))';
  _today date := (now() at time zone 'UTC')::date;
  _match text[];
  _value text;
  _date date;
  _free text;
  _tags text[] := '{}';
  _categories text[] := '{}';
  _states text[] := '{}';
  _after date;
  _before date;
  _english tsquery;
  _simple tsquery;
  _query tsquery;
  _descending boolean;
  _sort text := coalesce(nullif(sort_by, ''), case when coalesce(search, '') ~ '\w' then 'relevance' else 'upload_date' end);
  _from text;
  _where text := '';
  _order text;
  _direction text;
  _total bigint;
  _limit integer := least(greatest(coalesce(page_size, 50), 1), 1000);
  _offset integer := greatest(coalesce(page_offset, 0), 0);
  _organization uuid := private.caller_organization_id();
  _count_limit integer := least(greatest(coalesce(count_limit, 10000), 1), 10000);
  _capped boolean := false;
  _sections text[] := array_remove(coalesce(section_categories, '{}') || section_category, null);
begin
  if _organization is null then
    return;
  end if;
  if char_length(search) > 1000 then
    raise exception 'Search text must be at most 1000 characters';
  end if;

  -- Qualifiers first; what remains is the free text.
  for _match in select regexp_matches(coalesce(search, ''), _qualifier, 'gi') loop
    _value := coalesce(_match[4], _match[5]);
    case lower(_match[2])
      when 'tag' then
        if _value <> '' then _tags := _tags || lower(_value); end if;
      when 'category' then
        if _value <> '' then _categories := _categories || lower(_value); end if;
      else
        if lower(_value) in ('overdue', 'soon', 'later', 'none') then
          _states := _states || lower(_value);
        elsif _value ~ '^(<=|>=|<|>|=)?[0-9]{4}-[0-9]{2}-[0-9]{2}$' then
          begin
            _date := substring(_value from '[0-9]{4}-[0-9]{2}-[0-9]{2}$')::date;
          exception when others then
            raise exception 'Search: % is not a date', substring(_value from '[0-9-]+$');
          end;
          case substring(_value from '^[<>=]*')
            when '<' then _before := least(_before, _date);
            when '<=' then _before := least(_before, _date + 1);
            when '>' then _after := greatest(_after, _date);
            when '>=' then _after := greatest(_after, _date - 1);
            else
              _after := greatest(_after, _date - 1);
              _before := least(_before, _date + 1);
          end case;
        else
          raise exception 'Search: expires: takes a date such as expires:<2027-01-01, or overdue, soon, later or none';
        end if;
    end case;
  end loop;
  _free := regexp_replace(coalesce(search, ''), _qualifier, ' ', 'gi');

  -- The free text: stemmed words or words as written; the last word also as a prefix while it
  -- is being typed (the text ends in a letter or digit, not a space or a closing quote).
  if _free ~ '\w' then
    _english := websearch_to_tsquery('pg_catalog.english'::regconfig, _free);
    _simple := websearch_to_tsquery('pg_catalog.simple'::regconfig, _free);
  end if;
  if _free ~ '\w$' then
    if numnode(_english) > 0 and _english::text ~ '''$' then
      _english := (_english::text || ':*')::tsquery;
    end if;
    if numnode(_simple) > 0 and _simple::text ~ '''$' then
      _simple := (_simple::text || ':*')::tsquery;
    end if;
  end if;
  -- Both forms only where they differ (most words are their own stem), which also keeps the
  -- planner's estimate of the matches, and so its choice of the index, sound.
  _query := case
    when numnode(_english) > 0 and numnode(_simple) > 0 and _english::text <> _simple::text
      then _english || _simple
    when numnode(_simple) > 0 then _simple
  end;

  if category_filter is not null then
    _categories := _categories || lower(category_filter);
  end if;
  if tag_filter is not null then
    _tags := _tags || lower(tag_filter);
  end if;
  if expiry_filter is not null then
    if expiry_filter not in ('overdue', 'soon', 'later', 'none') then
      raise exception 'Expiry filter must be overdue, soon, later or none';
    end if;
    _states := _states || expiry_filter;
  end if;

  -- Each condition only when asked for, so the planner sees the simplest query. Values are
  -- parameters ($1…$10), never part of the text.
  if _query is not null then
    _where := _where || ' and t.search_vector @@ $3';
  end if;
  if cardinality(_tags) > 0 then
    _where := _where || ' and array(select lower(x) from unnest(d.tags) x) @> $1';
  end if;
  if cardinality(_categories) > 0 then
    _where := _where || ' and lower(d.category) = all ($2)';
  end if;
  if cardinality(_states) > 0 then
    _where := _where || $w$ and (case when d.expiry_date is null then 'none'
                                      when d.expiry_date < $4 then 'overdue'
                                      when d.expiry_date <= $4 + 30 then 'soon'
                                      else 'later' end) = any ($5)$w$;
  end if;
  if _after is not null then
    _where := _where || ' and d.expiry_date > $6';
  end if;
  if _before is not null then
    _where := _where || ' and d.expiry_date < $7';
  end if;
  if uploaded_by_filter is not null then
    _where := _where || ' and d.uploaded_by = $8';
  end if;
  if cardinality(_sections) > 0 or cardinality(section_tags) > 0 then
    _where := _where || ' and (d.category = any ($9) or d.tags && $10)';
  end if;

  -- The documents policy's condition ($14); the texts only when words are searched for.
  _from := ' from public.documents d'
    || case when _query is not null
         then ' join public.document_texts t on t.document_id = d.id' else '' end
    || ' where d.organization_id = $14 and d.deleted_at is null';

  -- Without words or filters the total is the organisation's counter; words are counted up to
  -- the limit (one more tells that there are more); filters alone are counted exactly.
  if _where = '' then
    _total := private.live_document_count(_organization);
  elsif _query is not null then
    execute 'select count(*) from (select 1' || _from || _where || ' limit $15) c'
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), null, null, null, _organization,
            _count_limit + 1;
    if _total > _count_limit then
      _total := _count_limit;
      _capped := true;
    end if;
  else
    execute 'select count(*)' || _from || _where
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), null, null, null, _organization;
  end if;

  if _sort = 'relevance' and (_query is null or _capped) then
    _sort := 'upload_date';
  end if;
  _descending := coalesce(sort_descending, _sort in ('relevance', 'upload_date', 'size'));
  -- %1$s is the direction, %2$s the alias of the documents (inside the page and outside it).
  _order := case _sort
    when 'relevance' then 'rank %1$s, %2$s.upload_date %1$s, %2$s.created_at %1$s, %2$s.id %1$s'
    when 'upload_date' then '%2$s.upload_date %1$s, %2$s.created_at %1$s, %2$s.id %1$s'
    when 'name' then '%2$s.name %1$s, %2$s.id %1$s'
    when 'category' then '%2$s.category %1$s, %2$s.name %1$s, %2$s.id %1$s'
    when 'expiry_date' then '%2$s.expiry_date %1$s nulls last, %2$s.id %1$s'
    when 'size' then '%2$s.size %1$s, %2$s.id %1$s'
    when 'status' then '%2$s.status %1$s, %2$s.upload_date %1$s, %2$s.id %1$s'
  end;
  if _order is null then
    raise exception 'Cannot sort by %', _sort;
  end if;
  _direction := case when _descending then 'desc' else 'asc' end;

  -- The page first, then its snippets and uploader names: ts_headline reads the text, so it
  -- runs for the rows shown only.
  return query execute format(
    $q$
    select p.id, p.organization_id, p.name, p.category, p.expiry_date, p.size, p.status,
           p.file_path, p.tags, p.description, p.uploaded_by, u.full_name, p.created_at,
           p.upload_date, p.updated_at, x.state, x.reason,
           case when strpos(h.snippet, '<mark>') > 0 then h.snippet end,
           p.rank, $11, p.responsible_id, r.full_name, p.renewal_in_progress, p.renewal_note,
           $16
    from (
      select d.*, %s as rank
      %s %s
      order by %s
      limit $12 offset $13
    ) p
    left join public.document_texts x on x.document_id = p.id
    left join public.user_profiles u on u.id = p.uploaded_by
    left join public.user_profiles r on r.id = p.responsible_id
    -- A snippet only where the description or the text holds the words (not the name alone).
    left join lateral (
      select ts_headline('pg_catalog.english'::regconfig,
                         left(coalesce(p.description, '') || ' … ' || coalesce(x.content, ''), 100000), $3,
                         'MaxFragments=2, MinWords=5, MaxWords=18, StartSel=<mark>, StopSel=</mark>, FragmentDelimiter=" … "')
               as snippet
      where $3 is not null
    ) h on true
    order by %s
    $q$,
    case when _query is not null then 'ts_rank(t.search_vector, $3)' else 'null::real' end,
    _from, _where, format(_order, _direction, 'd'), format(_order, _direction, 'p'))
    using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
          _sections, coalesce(section_tags, '{}'), _total, _limit, _offset, _organization,
          null, _capped;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer, text[])
  from public, anon, authenticated;
grant execute on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer, text[])
  to authenticated;
