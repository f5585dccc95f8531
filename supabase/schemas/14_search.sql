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
-- Tables
-- ============================================================================================
-- One row: the bytes of search vectors one search may read (search_documents: to rank its
-- matches, or to test a phrase), and so, at a quarter of it, the vectors stored out of line up
-- to which an organisation's texts may each be tested as the planner chooses. Only the owner
-- reads it; the tests lower it to show those bounds on a small library.
create table private.search_settings (
  id boolean primary key default true constraint search_settings_one_row check (id),
  read_budget bigint not null default 67108864
    constraint search_settings_read_budget_positive check (read_budget > 0)
);
insert into private.search_settings default values;

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- What a snippet looks for: a regular expression of the lexemes of the query's positive part
-- (querytree leaves out what must not be there) as the query writes them, each a literal, to
-- be matched regardless of case; null when there are none. A stem is the start of its words
-- ("insur" of "insurance"), a prefix of a word being typed too.
create function private.search_snippet_pattern(query tsquery)
returns text
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.string_agg(distinct pg_catalog.regexp_replace(t.term, '([^[:alnum:]])', '\\\1', 'g'), '|')
    from pg_catalog.regexp_matches(pg_catalog.querytree(query), '''((?:[^''\\]|''''|\\.)*)''', 'g') m,
         -- tsquery's text doubles the quotes and backslashes of a lexeme.
         pg_catalog.regexp_replace(m[1], '([''\\])\1', '\1', 'g') t(term)
   where t.term <> ''
$$;

-- The part of a document's description and text that its snippet is made from: about 600
-- characters (some 90 words; a snippet shows at most 36) from just before the first place
-- `pattern` matches in the description, or else in the first `scan` characters of `content`;
-- or the beginning when neither holds it there (a stem that is not the start of its word, as
-- "cri" of "cry"; words only in the name; no words). ts_headline then parses 600 characters,
-- not the whole text (43 ms for 100 KB). The text is read only as far as needed (its first
-- 2,000 characters hold most words searched for) and never past `scan`. The window starts and
-- ends between words.
create function private.search_snippet_window(
  description text, content text, pattern text, scan integer
)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  _source text := coalesce(description, '') || ' … ' || pg_catalog.left(coalesce(content, ''), 600);
  _at integer := 0;
  _start integer;
  _window text;
begin
  if pattern is not null then
    _at := pg_catalog.regexp_instr(coalesce(description, ''), pattern, 1, 1, 0, 'i');
    if _at = 0 then
      _at := pg_catalog.regexp_instr(pg_catalog.left(content, least(2000, scan)), pattern, 1, 1, 0, 'i');
      if _at = 0 and scan > 2000 then
        _at := pg_catalog.regexp_instr(pg_catalog.left(content, scan), pattern, 1, 1, 0, 'i');
      end if;
      if _at > 0 then
        _source := content;
      end if;
    end if;
  end if;
  -- From the first space among the 100 characters before the words.
  _start := greatest(_at - 100, 1);
  if _start > 1 then
    _start := _start + pg_catalog.strpos(pg_catalog.substr(_source, _start, _at - _start), ' ');
  end if;
  _window := pg_catalog.substr(_source, _start, 600);
  if pg_catalog.char_length(_window) = 600 then
    _window := pg_catalog.regexp_replace(_window, '\S+$', '');
  end if;
  return _window;
end
$$;

-- The organisation's documents whose vectors hold `query`, from the search index alone (at
-- most `max`; all when null), and what reading their vectors would cost, in bytes: their
-- stored size, five times that for a vector stored compressed (before this migration), which
-- must be decompressed too; both read from the rows without fetching the vectors. The only
-- index this can use is the search index: no sequential scan, no plain index scan, and the
-- organisation written so that no index on it applies. Any other plan tests the words on each
-- text's vector, reading it whole, a cost the planner does not count (see the header).
create function private.search_index_matches(
  organization uuid, query tsquery, max integer, out ids uuid[], out bytes bigint
)
language sql
stable
set search_path = ''
set enable_seqscan = off
set enable_indexscan = off
as $$
  select coalesce(pg_catalog.array_agg(m.document_id), '{}'), coalesce(pg_catalog.sum(m.cost), 0)
    from (select t.document_id,
                 pg_catalog.pg_column_size(t.search_vector)::bigint
                   operator(pg_catalog.*)
                   case when pg_catalog.pg_column_compression(t.search_vector) is null then 1
                        else 5 end as cost
            from public.document_texts t
           where t.search_vector operator(pg_catalog.@@) query
             and (t.organization_id operator(pg_catalog.=) organization) is true
           limit max) m
$$;

-- Adds `added` bytes to what this search has read of vectors stored out of line and tells
-- whether the total is still within `budget`. The total lives for the transaction;
-- search_documents sets it to 0 before it reads.
create function private.take_search_read(added bigint, budget bigint)
returns boolean
language sql
volatile
set search_path = ''
as $$
  select pg_catalog.set_config(
           'search.read_bytes',
           (coalesce(nullif(pg_catalog.current_setting('search.read_bytes', true), ''), '0')::bigint
             operator(pg_catalog.+) added)::text,
           true)::bigint operator(pg_catalog.<=) budget
$$;

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
-- direction. `page_size` is at most 100. Security definer: every statement keeps to the
-- caller's organisation and leaves the trash out, as the documents policy does; a caller
-- without one gets no rows.
--
-- Words are counted up to `count_limit` matches (at most, and by default, 10,000): past it
-- `total_count` is the limit and `total_capped` true ("more than 10,000"), and the page is the
-- newest first, since ranking every match of a word typed so far as "b" would cost more than it
-- tells. The matches are ranked (`rank`, and the order by relevance) only when their search
-- vectors take at most 64 MB together; else `rank` is null and the page is the newest first. A
-- phrase, or excluded words alone, is tested in the newest documents first, as many as 64 MB
-- of vectors: when that leaves some untested, `total_count` is the matches found and
-- `total_capped` true. Without words the total is exact (the counter, or a count of the
-- filter's matches).
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
  _where_filters text;
  _order text;
  _direction text;
  _total bigint;
  -- A page holds at most 100 documents, as PostgREST's max_rows caps a read: a larger page is
  -- served as 100 (the app asks for 50).
  _limit integer := least(greatest(coalesce(page_size, 50), 1), 100);
  _offset integer := greatest(coalesce(page_offset, 0), 0);
  _organization uuid := private.caller_organization_id('viewer');
  -- The categories the caller may not view ($18): their documents, and the words inside their
  -- files, are not there for the caller (021_document_categories.sql).
  _hidden text[] := private.caller_hidden_categories();
  _visible text := '';
  _count_limit integer := least(greatest(coalesce(count_limit, 10000), 1), 10000);
  _capped boolean := false;
  _sections text[] := array_remove(coalesce(section_categories, '{}') || section_category, null);
  -- Bytes of search vectors one search may read (to rank its matches, or to test a phrase):
  -- private.search_settings' 64 MB.
  _read_budget constant bigint := (select s.read_budget from private.search_settings s);
  -- What reading a document's search vector costs, in bytes: its stored size, five times that
  -- for a vector stored compressed (before …0200), which must be decompressed too. Read from
  -- the row alone, without fetching the vector.
  _read_cost constant text := '(pg_catalog.pg_column_size(t.search_vector)::bigint
    * case when pg_catalog.pg_column_compression(t.search_vector) is null then 1 else 5 end)';
  _positive text;
  _candidates tsquery;
  _checked boolean := false;
  _many boolean := false;
  _small boolean := false;
  _matches uuid[] := '{}';
  _read bigint := 0;
  _all_read boolean := true;
  _ranked boolean := false;
  _page uuid[];
  _ranks real[];
  _pattern text;
  _scan integer;
  -- The documents policy's condition ($14) with each document's text, found by its key alone:
  -- the document's organisation is the text's. A condition on the text's organisation too lets
  -- a plan made without statistics (PGlite's, before its first analyze) look up every text of
  -- the organisation by that index for each document, testing each vector once per document:
  -- 350 texts of 100 KB took 1.8 s to count a common word, 8 ms by the key.
  _with_texts constant text := ' from public.documents d join public.document_texts t'
    || ' on t.document_id = d.id where d.organization_id = $14 and d.deleted_at is null';
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
  -- parameters ($1…$10), never part of the text. The words' own condition follows below. The
  -- categories hidden from the caller first: every statement below reads `_where`.
  if cardinality(_hidden) > 0 then
    _visible := ' and d.category <> all ($18)';
  end if;
  _where := _visible;
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

  _where_filters := _where;

  -- Words: first the ids of the organisation's documents that hold them, from the search index
  -- alone (see the header), which the statements below take as a list; at most one more than
  -- the count limit, which tells that there are more.
  if _query is not null then
    -- What the index can answer: the words that must be there (querytree leaves out the
    -- excluded ones). Whether words form a phrase only their vector knows, and excluded words
    -- alone match nearly everything: those searches test each candidate's vector (below).
    _positive := pg_catalog.querytree(_query);
    if _positive = 'T' then
      _checked := true;
    elsif _positive ~ '<(-|[0-9]+)>' then
      _checked := true;
      -- The phrase's words anywhere in the document: every document with the phrase has them.
      _candidates := pg_catalog.regexp_replace(_positive, '<(-|[0-9]+)>', '&', 'g')::tsquery;
    else
      _candidates := _query;
    end if;
    -- An organisation whose vectors stored out of line take at most 16 MB together (most: a
    -- short text's vector is kept in its row) is searched as before, the planner choosing
    -- between the index and its texts: testing each of them reads little, and a common word's
    -- matches in other organisations are not read (see the header).
    _small := not _checked and coalesce((select b.bytes from private.search_vector_bytes b
                                          where b.organization_id = _organization), 0)
                               <= _read_budget / 4;
    if _candidates is not null and not _small then
      select m.ids, m.bytes into _matches, _read
        from private.search_index_matches(_organization, _candidates,
                                          case when not _checked then _count_limit + 1 end) m;
      -- More texts hold the words than are counted: they are found as the documents are read
      -- (below), not listed.
      _many := not _checked and pg_catalog.cardinality(_matches) > _count_limit;
    end if;
  end if;

  -- The documents policy's condition ($14); a search's matches: in a small organisation, the
  -- words ($3) as any plan may test them; else listed ($16), or, when there are many, tested on
  -- each document read, a vector in the row at once (a short text), one stored out of line
  -- within the budget of vectors read ($17), as a phrase is (below).
  _from := ' from public.documents d where d.organization_id = $14 and d.deleted_at is null';
  if _many or _small then
    _from := _with_texts;
  end if;
  if _small then
    _where := _where || ' and t.search_vector @@ $3';
  elsif _many then
    _where := _where
      || ' and case when pg_catalog.pg_column_size(t.search_vector) <= 2048 then t.search_vector @@ $3'
      || ' when private.take_search_read(pg_catalog.pg_column_size(t.search_vector), $17)'
      || ' then t.search_vector @@ $3 else false end';
    perform pg_catalog.set_config('search.read_bytes', '0', true);
  elsif _candidates is not null then
    _where := _where || ' and d.id = any ($16)';
  end if;

  if _many or _small then
    -- Words not listed: the documents are counted as they are found, up to one more than the
    -- limit. In a small organisation that is the count. Words in more texts than are counted,
    -- found fewer times (filters, or the trash, left the others out) with budget to spare, are
    -- listed after all, to be ranked.
    execute 'select count(*) from (select 1' || _from || _where || ' limit $15) c'
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
    if _total > _count_limit
       or (_many and pg_catalog.current_setting('search.read_bytes')::bigint > _read_budget) then
      _total := _count_limit;
      _capped := true;
    elsif _small then
      null; -- Exact; ranking reads at most the vectors stored out of line (`_read`, 16 MB).
    else
      _many := false;
      select m.ids, m.bytes into _matches, _read
        from private.search_index_matches(_organization, _candidates, null) m;
      _from := ' from public.documents d where d.organization_id = $14 and d.deleted_at is null';
      _where := _where_filters || ' and d.id = any ($16)';
    end if;
  end if;

  if _checked then
    -- A phrase, or excluded words alone: the candidates are tested newest first, each reading
    -- its vector, until the budget is spent. The matches found are the result, "more than" that
    -- many when candidates were left untested; the newest _count_limit + 1 are kept.
    execute format(
      $q$
      select coalesce((pg_catalog.array_agg(c.id order by c.n) filter (where c.matched))[1:$15], '{}'),
             coalesce(pg_catalog.sum(c.cost) filter (where c.matched), 0),
             coalesce(pg_catalog.bool_and(c.spent <= $17), true)
        from (select m.id, m.n, m.cost, m.spent,
                     case when m.spent <= $17 then m.search_vector @@ $3 else false end as matched
                from (select d.id, t.search_vector, %1$s as cost,
                             pg_catalog.row_number() over w as n, pg_catalog.sum(%1$s) over w as spent
                        from public.documents d join public.document_texts t on t.document_id = d.id
                       where d.organization_id = $14 and d.deleted_at is null %2$s
                      window w as (order by d.upload_date desc, d.created_at desc, d.id desc
                                   rows between unbounded preceding and current row)) m) c
      $q$,
      _read_cost, _where)
      into _matches, _read, _all_read
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
    _total := pg_catalog.cardinality(_matches);
    _capped := _total > _count_limit or not _all_read;
    _total := least(_total, _count_limit);
    _where := ' and d.id = any ($16)';
  elsif _many or _small then
    null; -- Counted above.
  elsif _query is not null then
    -- Words: the listed matches that are in use and pass the filters (at most the limit: no
    -- more texts hold the words). What ranking them reads was summed with the list.
    execute 'select count(*)' || _from || _where
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
  elsif _where = _visible then
    -- Neither words nor filters: the organisation's counter, over the categories the caller
    -- may view.
    _total := private.live_document_count(_organization, _hidden);
  else
    -- Filters alone: counted exactly.
    execute 'select count(*)' || _from || _where
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
  end if;

  -- Ranking reads each match's vector: only all of the matches and within the budget; else
  -- the newest first.
  _ranked := _query is not null and not _capped and _read <= _read_budget;
  if _sort = 'relevance' and not _ranked then
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

  -- The page: its documents in order, with their rank. Words in many texts are tested on the
  -- documents read for the page, with a budget of their own.
  if _many or _small then
    perform pg_catalog.set_config('search.read_bytes', '0', true);
  end if;
  execute format(
    $q$
    select coalesce(pg_catalog.array_agg(p.id order by %1$s), '{}'),
           coalesce(pg_catalog.array_agg(p.rank order by %1$s), '{}')
      from (select d.*, %2$s as rank %3$s %4$s order by %5$s limit $12 offset $13) p
    $q$,
    format(_order, _direction, 'p'),
    case when _ranked then 'ts_rank(t.search_vector, $3)' else 'null::real' end,
    case when _ranked then _with_texts else _from end,
    _where, format(_order, _direction, 'd'))
    into _page, _ranks
    using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
          _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
          _organization, _count_limit + 1, _matches, _read_budget, _hidden;

  -- Then its rows, with their snippets and uploader names: a snippet reads the text, so it is
  -- made for the rows shown only, from a window of it around the words. Each looks for them in
  -- the beginning of the text, up to 100,000 characters, and all of a page's at most 1,000,000
  -- together (10,000 each for a page of 100, 20,000 for the app's 50).
  _pattern := private.search_snippet_pattern(_query);
  _scan := least(100000, 1000000 / greatest(pg_catalog.cardinality(_page), 1));
  return query
    select p.id, p.organization_id, p.name, p.category, p.expiry_date, p.size, p.status,
           p.file_path, p.tags, p.description, p.uploaded_by, u.full_name, p.created_at,
           p.upload_date, p.updated_at, x.state, x.reason,
           case when strpos(h.snippet, '<mark>') > 0 then h.snippet end,
           g.rank, _total, p.responsible_id, r.full_name, p.renewal_in_progress, p.renewal_note,
           _capped
      from unnest(_page, _ranks) with ordinality as g(id, rank, n)
      join public.documents p on p.id = g.id
      left join public.document_texts x on x.document_id = p.id
      left join public.user_profiles u on u.id = p.uploaded_by
      left join public.user_profiles r on r.id = p.responsible_id
      -- A snippet only where the description or the text holds the words (not the name alone),
      -- highlighted around the first place they are.
      left join lateral (
        select ts_headline('pg_catalog.english'::regconfig,
                           private.search_snippet_window(p.description, x.content, _pattern, _scan),
                           _query,
                           'MaxFragments=2, MinWords=5, MaxWords=18, StartSel=<mark>, StopSel=</mark>, FragmentDelimiter=" … "')
                 as snippet
         where _query is not null
      ) h on true
     order by g.n;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer, text[])
  from public, anon, authenticated;
grant execute on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer, text[])
  to authenticated;
revoke all on function private.search_snippet_pattern(tsquery) from public, anon, authenticated;
revoke all on function private.search_snippet_window(text, text, text, integer)
  from public, anon, authenticated;
revoke all on function private.search_index_matches(uuid, tsquery, integer)
  from public, anon, authenticated;
revoke all on function private.take_search_read(bigint, bigint) from public, anon, authenticated;
alter table private.search_settings enable row level security;
revoke all on private.search_settings from public, anon, authenticated, service_role;
