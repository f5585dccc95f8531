import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadSchemaCache } from '../../server/rest/schema-cache.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rest } from './rest-helpers.ts';

let server: TestServer;
let db: SupabaseClient;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  db = server.service();
  await server.db.serverWork().exec(`
    create table authors (id bigint primary key, name text not null, born date, bio jsonb);
    create table posts (
      id bigint primary key,
      author_id bigint not null references authors (id),
      editor_id bigint references authors (id),
      title text not null,
      tags text[],
      meta jsonb,
      rating numeric,
      published boolean,
      search tsvector
    );
    create table comments (id bigint primary key, post_id bigint not null references posts (id), body text, score int);
    create table profiles (author_id bigint primary key references authors (id), website text);
    create table categories (id int primary key, parent_id int references categories (id), name text not null);
    create table lonely (id int primary key);

    insert into authors values
      (1, 'Ann', '1980-01-02', '{"city": "Oslo", "langs": ["no", "en"]}'),
      (2, 'Bob', null, null),
      (3, 'Cat', '1990-05-06', '{"city": "Rome"}');
    insert into posts values
      (1, 1, 2, 'Hello world', '{news,tech}', '{"views": 10, "lang": "en"}', 4.5, true, to_tsvector('english', 'Hello wonderful world')),
      (2, 1, null, 'Second post', '{tech}', '{"views": 3}', null, false, to_tsvector('english', 'the second post')),
      (3, 2, 1, 'Bob writes, (again)', null, null, 2, null, to_tsvector('english', 'writing again'));
    insert into comments values (1, 1, 'Nice', 5), (2, 1, 'Meh', 2), (3, 2, 'First!', null);
    insert into profiles values (1, 'https://ann.example');
    insert into categories values (1, null, 'Root'), (2, 1, 'Child A'), (3, 1, 'Child B');
  `);
});

afterAll(async () => {
  await server?.close();
});

describe('select', () => {
  it('returns every column for *, as a JSON array', async () => {
    const { data, error, status } = await db.from('authors').select('*').order('id');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      { id: 1, name: 'Ann', born: '1980-01-02', bio: { city: 'Oslo', langs: ['no', 'en'] } },
      { id: 2, name: 'Bob', born: null, bio: null },
      { id: 3, name: 'Cat', born: '1990-05-06', bio: { city: 'Rome' } },
    ]);
  });

  it('renames with aliases and casts with ::type', async () => {
    const { data } = await db.from('authors').select('key:id::text, name').eq('id', 1);
    expect(data).toEqual([{ key: '1', name: 'Ann' }]);
  });

  it('refuses a cast to a type that does not exist, without running it', async () => {
    const { error, status } = await db.from('authors').select('id::nosuchtype');
    expect(status).toBe(400);
    expect(error?.message).toBe('type "nosuchtype" does not exist');
  });

  it('reads JSON paths with -> and ->>, named after the last key', async () => {
    const { data } = await db
      .from('authors')
      .select('id, bio->city, town:bio->>city, first_lang:bio->langs->0, bio->langs->>1')
      .eq('id', 1);
    expect(data).toEqual([{ id: 1, city: 'Oslo', town: 'Oslo', first_lang: 'no', langs: 'en' }]);
  });

  it('embeds a to-one relationship as an object, chosen by a foreign-key hint', async () => {
    const { data, error } = await db
      .from('posts')
      .select('id, author:authors!posts_author_id_fkey(name), editor:authors!editor_id(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, author: { name: 'Ann' }, editor: { name: 'Bob' } },
      { id: 2, author: { name: 'Ann' }, editor: null },
      { id: 3, author: { name: 'Bob' }, editor: { name: 'Ann' } },
    ]);
  });

  it('embeds by foreign-key column name', async () => {
    const { data } = await db.from('posts').select('id, author_id(name)').eq('id', 3);
    expect(data).toEqual([{ id: 3, author_id: { name: 'Bob' } }]);
  });

  it('answers 300 PGRST201 for an ambiguous embed, listing the relationships', async () => {
    const { error, status } = await db.from('posts').select('id, authors(name)');
    expect(status).toBe(300);
    expect(error?.code).toBe('PGRST201');
    expect(error?.message).toBe(
      "Could not embed because more than one relationship was found for 'posts' and 'authors'",
    );
    expect(error?.details).toHaveLength(2);
    expect(error?.hint).toContain("'authors!posts_author_id_fkey'");
  });

  it('answers 400 PGRST200 when no relationship exists', async () => {
    const { error, status } = await db.from('posts').select('id, lonely(*)');
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: 'PGRST200',
      message: "Could not find a relationship between 'posts' and 'lonely' in the schema cache",
    });
  });

  it('embeds to-many relationships as arrays, [] when empty, nested', async () => {
    const { data } = await db
      .from('authors')
      .select('name, posts!posts_author_id_fkey(title, comments(body))')
      .order('id');
    expect(data).toEqual([
      {
        name: 'Ann',
        posts: [
          { title: 'Hello world', comments: [{ body: 'Nice' }, { body: 'Meh' }] },
          { title: 'Second post', comments: [{ body: 'First!' }] },
        ],
      },
      { name: 'Bob', posts: [{ title: 'Bob writes, (again)', comments: [] }] },
      { name: 'Cat', posts: [] },
    ]);
  });

  it('embeds a one-to-one relationship as an object', async () => {
    const { data } = await db
      .from('authors')
      .select('name, profiles(website)')
      .order('id')
      .limit(2);
    expect(data).toEqual([
      { name: 'Ann', profiles: { website: 'https://ann.example' } },
      { name: 'Bob', profiles: null },
    ]);
  });

  it('follows self-references both ways', async () => {
    const { data } = await db
      .from('categories')
      .select('name, parent:parent_id(name), children:categories(name)')
      .order('id');
    expect(data).toEqual([
      { name: 'Root', parent: null, children: [{ name: 'Child A' }, { name: 'Child B' }] },
      { name: 'Child A', parent: { name: 'Root' }, children: [] },
      { name: 'Child B', parent: { name: 'Root' }, children: [] },
    ]);
  });

  it('spreads a to-one embed into the parent object', async () => {
    const { data } = await db
      .from('posts')
      .select('id, ...authors!posts_author_id_fkey(author_name:name)')
      .order('id')
      .limit(1);
    expect(data).toEqual([{ id: 1, author_name: 'Ann' }]);
  });

  it('refuses to spread a to-many embed', async () => {
    const { status, error } = await db
      .from('authors')
      .select('name, ...profiles(website), ...comments(body)');
    expect(status).toBe(400);
    expect(error?.code).toBe('PGRST200');
    const spread = await rest(server, '/authors?select=name,...posts!posts_author_id_fkey(title)');
    expect(spread.status).toBe(400);
    expect(spread.json).toMatchObject({ code: 'PGRST119' });
  });

  it('filters, orders and limits embedded resources without filtering the parents', async () => {
    const { data } = await db
      .from('authors')
      .select('name, posts!posts_author_id_fkey(title)')
      .ilike('posts.title', '*o*')
      .order('title', { referencedTable: 'posts', ascending: false })
      .limit(1, { referencedTable: 'posts' })
      .order('id');
    expect(data).toEqual([
      { name: 'Ann', posts: [{ title: 'Second post' }] },
      { name: 'Bob', posts: [{ title: 'Bob writes, (again)' }] },
      { name: 'Cat', posts: [] },
    ]);
  });

  it('filters parents by an embed with !inner', async () => {
    const { data } = await db
      .from('authors')
      .select('name, posts!posts_author_id_fkey!inner(title)')
      .eq('posts.published', true);
    expect(data).toEqual([{ name: 'Ann', posts: [{ title: 'Hello world' }] }]);
  });

  it('filters parents by whether an embed has rows: embed=is.null and not.is.null', async () => {
    const without = await db
      .from('authors')
      .select('name, posts!posts_author_id_fkey()')
      .is('posts', null);
    expect(without.data).toEqual([{ name: 'Cat' }]);
    const withPosts = await db
      .from('authors')
      .select('name, posts!posts_author_id_fkey(id)')
      .not('posts', 'is', null)
      .order('id');
    expect(withPosts.data?.map((a) => a.name)).toEqual(['Ann', 'Bob']);
  });

  it('orders by a column of a to-one embed', async () => {
    const { data } = await db
      .from('posts')
      .select('id, author:authors!posts_author_id_fkey(name)')
      .order('author(name)', { ascending: false })
      .order('id');
    expect(data?.map((p) => p.id)).toEqual([3, 1, 2]);
  });
});

describe('filters', () => {
  const ids = async (query: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
    const { data, error } = await query;
    expect(error).toBeNull();
    return (data ?? []).map((row) => row.id).sort();
  };
  const posts = () => db.from('posts').select('id');

  it('compares with eq, neq, gt, gte, lt, lte', async () => {
    expect(await ids(posts().eq('id', 2))).toEqual([2]);
    expect(await ids(posts().neq('id', 2))).toEqual([1, 3]);
    expect(await ids(posts().gt('rating', 2))).toEqual([1]);
    expect(await ids(posts().gte('rating', 2))).toEqual([1, 3]);
    expect(await ids(posts().lt('id', 2))).toEqual([1]);
    expect(await ids(posts().lte('id', 2))).toEqual([1, 2]);
  });

  it('matches patterns with like, ilike (* for %), match and imatch', async () => {
    expect(await ids(posts().like('title', '*post'))).toEqual([2]);
    expect(await ids(posts().ilike('title', 'hello*'))).toEqual([1]);
    expect(await ids(posts().match({ title: 'Second post' }))).toEqual([2]);
    expect(await ids(posts().filter('title', 'match', '^B.*again'))).toEqual([3]);
    expect(await ids(posts().filter('title', 'imatch', '^b'))).toEqual([3]);
  });

  it('takes in lists, quoting values with commas and parentheses', async () => {
    expect(await ids(posts().in('title', ['Hello world', 'Bob writes, (again)']))).toEqual([1, 3]);
    expect(await ids(posts().in('id', []))).toEqual([]);
    expect(await ids(posts().not('id', 'in', '(1,2)'))).toEqual([3]);
  });

  it('tests with is null, not_null, true, false and isdistinct', async () => {
    expect(await ids(posts().is('editor_id', null))).toEqual([2]);
    expect(await ids(posts().not('editor_id', 'is', null))).toEqual([1, 3]);
    expect(await ids(posts().is('published', true))).toEqual([1]);
    expect(await ids(posts().is('published', false))).toEqual([2]);
    expect(await ids(posts().filter('published', 'isdistinct', 'true'))).toEqual([2, 3]);
  });

  it('compares arrays and JSON with cs, cd and ov', async () => {
    expect(await ids(posts().contains('tags', ['tech']))).toEqual([1, 2]);
    expect(await ids(posts().containedBy('tags', ['tech', 'news', 'misc']))).toEqual([1, 2]);
    expect(await ids(posts().overlaps('tags', ['news', 'none']))).toEqual([1]);
    expect(await ids(posts().contains('meta', { lang: 'en' }))).toEqual([1]);
  });

  it('searches text with fts, plfts, phfts and wfts, with a language', async () => {
    expect(await ids(posts().textSearch('search', 'wonderful & world'))).toEqual([1]);
    expect(await ids(posts().textSearch('search', 'second post', { type: 'plain' }))).toEqual([2]);
    expect(await ids(posts().textSearch('search', 'wonderful world', { type: 'phrase' }))).toEqual([
      1,
    ]);
    expect(
      await ids(
        posts().textSearch('title', 'hello -second', { type: 'websearch', config: 'english' }),
      ),
    ).toEqual([1]);
  });

  it('negates with not. and quantifies with (any) and (all)', async () => {
    expect(await ids(posts().not('title', 'like', '*post*'))).toEqual([1, 3]);
    expect(await ids(posts().filter('title', 'like(any)', '{*world,*again*}'))).toEqual([1, 3]);
    expect(await ids(posts().filter('title', 'like(all)', '{*o*,*e*}'))).toEqual([1, 2, 3]);
    expect(await ids(posts().filter('id', 'eq(any)', '{1,3}'))).toEqual([1, 3]);
  });

  it('combines with or, and, not.or and nesting', async () => {
    expect(await ids(posts().or('id.eq.1,rating.lt.3'))).toEqual([1, 3]);
    expect(await ids(posts().or('id.eq.2,and(rating.gt.1,published.is.true)'))).toEqual([1, 2]);
    const notOr = await rest(server, '/posts?select=id&not.or=(id.eq.1,id.eq.2)');
    expect(notOr.json).toEqual([{ id: 3 }]);
    const nested = await rest(
      server,
      '/posts?select=id&or=(and(id.gte.2,not.or(id.eq.2,title.eq.x)),id.eq.1)&order=id',
    );
    expect(nested.json).toEqual([{ id: 1 }, { id: 3 }]);
    expect(await ids(posts().or('title.in.("Bob writes, (again)",Second post)'))).toEqual([2, 3]);
  });

  it('filters inside JSON with a path', async () => {
    expect(await ids(posts().eq('meta->>lang', 'en'))).toEqual([1]);
    expect(await ids(posts().gt('meta->views', 5))).toEqual([1]);
  });

  it('applies or= to an embedded resource', async () => {
    const { data } = await db
      .from('posts')
      .select('id, comments(body)')
      .or('score.gt.4,body.eq.First!', { referencedTable: 'comments' })
      .order('id');
    expect(data).toEqual([
      { id: 1, comments: [{ body: 'Nice' }] },
      { id: 2, comments: [{ body: 'First!' }] },
      { id: 3, comments: [] },
    ]);
  });
});

describe('order, limit, offset and counts', () => {
  it('orders by several columns with nulls first or last', async () => {
    const desc = await db
      .from('posts')
      .select('id')
      .order('rating', { ascending: false, nullsFirst: false });
    expect(desc.data?.map((p) => p.id)).toEqual([1, 3, 2]);
    const first = await db.from('posts').select('id').order('rating', { nullsFirst: true });
    expect(first.data?.map((p) => p.id)).toEqual([2, 3, 1]);
    const two = await db
      .from('posts')
      .select('id')
      .order('author_id')
      .order('id', { ascending: false });
    expect(two.data?.map((p) => p.id)).toEqual([2, 1, 3]);
    const json = await db
      .from('posts')
      .select('id')
      .order('meta->views', { ascending: true, nullsFirst: false });
    expect(json.data?.map((p) => p.id)).toEqual([2, 1, 3]);
  });

  it('pages with limit, offset and range', async () => {
    const { data } = await db.from('posts').select('id').order('id').range(1, 2);
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
    const limited = await db.from('posts').select('id').order('id').limit(1);
    expect(limited.data).toEqual([{ id: 1 }]);
  });

  it('counts exactly with Prefer: count, answering 206 for a partial page', async () => {
    const { data, count, status } = await db
      .from('posts')
      .select('id', { count: 'exact' })
      .order('id')
      .limit(2);
    expect(data).toHaveLength(2);
    expect(count).toBe(3);
    expect(status).toBe(206);
    // Below max_rows an estimated count is exact (the planner's estimate: rest-parity.test.ts).
    const all = await db.from('posts').select('id', { count: 'estimated' });
    expect(all.count).toBe(3);
    expect(all.status).toBe(200);
    const raw = await rest(server, '/posts?select=id&offset=1&limit=1', {
      headers: { Prefer: 'count=exact' },
    });
    expect(raw.headers.get('content-range')).toBe('1-1/3');
    const none = await rest(server, '/posts?select=id&id=eq.99', {
      headers: { Prefer: 'count=exact' },
    });
    expect(none.headers.get('content-range')).toBe('*/0');
    const noCount = await rest(server, '/posts?select=id');
    expect(noCount.headers.get('content-range')).toBe('0-2/*');
  });

  it('counts with head: true and sends no body', async () => {
    const { data, count, status } = await db
      .from('posts')
      .select('*', { count: 'exact', head: true })
      .eq('author_id', 1);
    expect(status).toBe(200);
    expect(count).toBe(2);
    expect(data).toBeNull();
    const raw = await rest(server, '/posts', { method: 'HEAD' });
    expect(raw.status).toBe(200);
    expect(raw.text).toBe('');
  });

  it('answers 416 PGRST103 for an offset past the total', async () => {
    const { error, status } = await db.from('posts').select('id', { count: 'exact' }).range(10, 12);
    expect(status).toBe(416);
    expect(error).toMatchObject({
      code: 'PGRST103',
      details: 'An offset of 10 was requested, but there are only 3 rows.',
    });
  });

  it('refuses a limit that is not a number', async () => {
    const raw = await rest(server, '/posts?limit=ten');
    expect(raw.status).toBe(400);
    expect(raw.json).toMatchObject({ code: 'PGRST100' });
  });
});

describe('single objects and media types', () => {
  it('returns the bare object for .single() with one row, 406 PGRST116 otherwise', async () => {
    const one = await db.from('authors').select('name').eq('id', 2).single();
    expect(one).toMatchObject({ data: { name: 'Bob' }, error: null, status: 200 });
    const none = await db.from('authors').select('name').eq('id', 99).single();
    expect(none.status).toBe(406);
    expect(none.error).toEqual({
      code: 'PGRST116',
      details: 'The result contains 0 rows',
      hint: null,
      message: 'Cannot coerce the result to a single JSON object',
    });
    const two = await db.from('authors').select('name').lt('id', 3).single();
    expect(two.error?.details).toBe('The result contains 2 rows');
  });

  it('supports .maybeSingle()', async () => {
    expect((await db.from('authors').select('name').eq('id', 99).maybeSingle()).data).toBeNull();
    expect((await db.from('authors').select('name').eq('id', 1).maybeSingle()).data).toEqual({
      name: 'Ann',
    });
    const many = await db.from('authors').select('name').maybeSingle();
    expect(many.error?.code).toBe('PGRST116');
  });

  it('answers text/csv', async () => {
    const { data, error } = await db.from('authors').select('id, name').order('id').csv();
    expect(error).toBeNull();
    expect(data).toBe('id,name\n1,Ann\n2,Bob\n3,Cat');
  });

  it('sends text of every script as UTF-8, its Content-Length counting bytes, however large', async () => {
    // The body goes from the database to the socket as bytes (ResultRow): multi-byte
    // characters, a character outside the BMP and a body of many buffers' size must arrive whole.
    const text = 'Grüße, 教会, Œuvre 🙂';
    const long = 'ä'.repeat(100_000);
    await server.db
      .serverWork()
      .query(`insert into categories values (10, null, $1), (11, null, $2), (12, null, 'tail')`, [
        text,
        long,
      ]);
    const read = async (path: string, accept?: string) => {
      const response = await fetch(`${server.url}/rest/v1${path}`, {
        headers: {
          apikey: server.keys.anonKey,
          Authorization: `Bearer ${server.keys.serviceRoleKey}`,
          ...(accept ? { Accept: accept } : {}),
        },
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get('content-length')).toBe(String(bytes.byteLength));
      return bytes.toString('utf8');
    };
    const json = await read('/categories?select=id,name&id=gte.10&order=id');
    expect(JSON.parse(json)).toEqual([
      { id: 10, name: text },
      { id: 11, name: long },
      { id: 12, name: 'tail' },
    ]);
    expect(await read('/categories?select=name&id=eq.10', 'text/csv')).toBe(`name\n"${text}"`);
    const single = await read(
      '/categories?select=name&id=eq.10',
      'application/vnd.pgrst.object+json',
    );
    expect(JSON.parse(single)).toEqual({ name: text });
    // Read again: the same bytes, now from PGlite's read cache.
    expect(JSON.parse(await read('/categories?select=id,name&id=gte.10&order=id'))).toHaveLength(3);
    const created = await db
      .from('categories')
      .insert({ id: 13, name: text })
      .select('name')
      .single();
    expect(created).toMatchObject({ data: { name: text }, status: 201 });
    const located = await rest(server, '/categories', {
      method: 'POST',
      body: JSON.stringify({ id: 14, name: text }),
      headers: { Prefer: 'return=headers-only' },
    });
    expect(located.status).toBe(201);
    expect(located.headers.get('location')).toBe('/categories?id=eq.14');
    await server.db.serverWork().query('delete from categories where id >= 10');
  });

  it('strips nulls on request', async () => {
    const raw = await rest(server, '/authors?select=id,born&id=eq.2', {
      headers: { Accept: 'application/vnd.pgrst.array+json;nulls=stripped' },
    });
    expect(raw.json).toEqual([{ id: 2 }]);
  });

  it('answers 406 PGRST107 for a media type it cannot produce', async () => {
    const raw = await rest(server, '/authors', { headers: { Accept: 'application/xml' } });
    expect(raw.status).toBe(406);
    expect(raw.json).toMatchObject({
      code: 'PGRST107',
      message: 'None of these media types are available: application/xml',
    });
  });

  it('answers 406 PGRST106 for a schema that is not exposed', async () => {
    const { error, status } = await db.schema('private').from('authors').select();
    expect(status).toBe(406);
    expect(error).toMatchObject({
      code: 'PGRST106',
      message: 'Invalid schema: private',
      hint: 'Only the following schemas are exposed: public',
    });
  });
});

describe('request errors', () => {
  it('answers 400 PGRST100 with the position for a filter that does not parse', async () => {
    const raw = await rest(server, '/posts?id=nope.1');
    expect(raw.status).toBe(400);
    expect(raw.json).toEqual({
      code: 'PGRST100',
      details: 'unexpected "n" expecting "not" or operator (eq, gt, ...)',
      hint: null,
      message: '"failed to parse filter (nope.1)" (line 1, column 1)',
    });
  });

  it('answers 400 PGRST100 for a select or order that does not parse', async () => {
    for (const path of [
      '/posts?select=id,(',
      '/posts?select=a!b!c!d(x)',
      '/posts?order=id.sideways',
      '/posts?or=(id.eq.1',
    ]) {
      const raw = await rest(server, path);
      expect(raw.status, path).toBe(400);
      expect(raw.json, path).toMatchObject({ code: 'PGRST100' });
    }
  });

  it('answers 400 for unknown columns and 404 PGRST205 (with a hint) for unknown tables', async () => {
    const column = await db.from('posts').select('id').eq('nope', 1);
    expect(column.status).toBe(400);
    expect(column.error?.message).toBe('column posts.nope does not exist');
    const table = await db.from('post').select();
    expect(table.status).toBe(404);
    expect(table.error).toMatchObject({
      code: 'PGRST205',
      message: "Could not find the table 'public.post' in the schema cache",
      hint: "Perhaps you meant the table 'public.posts'",
    });
  });

  it('answers PGRST108 for a filter on a resource that is not embedded, PGRST120 for a bad operator on one', async () => {
    const notEmbedded = await rest(server, '/authors?select=name&posts.id=eq.1');
    expect(notEmbedded.status).toBe(400);
    expect(notEmbedded.json).toMatchObject({ code: 'PGRST108' });
    const badOperator = await rest(server, '/authors?select=name,profiles(website)&profiles=eq.1');
    expect(badOperator.status).toBe(400);
    expect(badOperator.json).toMatchObject({ code: 'PGRST120' });
  });

  it('refuses values nested deeper than 100 levels, and keeps serving', async () => {
    // About as deep as fits in a URL (Node refuses request lines over 16 KiB with 431).
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const raw = await rest(server, `/authors?select=id&bio=cs.${deep}`);
    expect(raw.status).toBe(400);
    expect(raw.json).toMatchObject({ code: 'PGRST100' });
    const body = await rest(server, '/authors', {
      method: 'POST',
      body: `{"id":9,"name":"x","bio":${deep}}`,
    });
    expect(body.status).toBe(400);
    expect(body.json).toMatchObject({ code: 'PGRST102' });
    const nested = await db
      .from('authors')
      .select('id')
      .contains('bio', { a: [[[1]]] });
    expect(nested.status).toBe(200);
  });

  it('refuses aggregates, as PostgREST does by default', async () => {
    const raw = await rest(server, '/posts?select=count()');
    expect(raw.status).toBe(400);
    expect(raw.json).toMatchObject({ code: 'PGRST123' });
  });

  it('answers PGRST125 for a path that is no resource', async () => {
    const raw = await rest(server, '/posts/1');
    expect(raw.status).toBe(404);
    expect(raw.json).toMatchObject({ code: 'PGRST125' });
  });
});

describe('schema cache', () => {
  it('sees tables and columns created after the server started', async () => {
    await server.db.serverWork().exec(`create table late_arrival (id int primary key, label text);
      insert into late_arrival values (1, 'here');`);
    expect((await db.from('late_arrival').select('label')).data).toEqual([{ label: 'here' }]);
    expect((await db.from('late_arrival').select('*')).data).toEqual([{ id: 1, label: 'here' }]);
    await server.db
      .serverWork()
      .exec(`alter table late_arrival add column extra text default 'x';`);
    expect((await db.from('late_arrival').select('extra')).data).toEqual([{ extra: 'x' }]);
    // The same request shape as before the change: its prepared statement must not be reused.
    expect((await db.from('late_arrival').select('*')).data).toEqual([
      { id: 1, label: 'here', extra: 'x' },
    ]);
  });

  it('sees relationships and functions created after the server started', async () => {
    await server.db.serverWork()
      .exec(`create table late_child (id int primary key, parent int references late_arrival (id));
      insert into late_child values (7, 1);
      create function late_fn() returns int language sql as 'select 42';`);
    const { data } = await db.from('late_arrival').select('id, late_child(id)');
    expect(data).toEqual([{ id: 1, late_child: [{ id: 7 }] }]);
    expect((await db.rpc('late_fn')).data).toBe(42);
  });

  it('reloads on the explicit hook, for changes no request could notice', async () => {
    await server.db.serverWork().exec(`create table hub (id int primary key);
      create table spoke (id int primary key, hub_id int references hub (id));
      insert into hub values (1); insert into spoke values (1, 1);`);
    expect((await db.from('spoke').select('id, hub(id)')).data).toEqual([
      { id: 1, hub: { id: 1 } },
    ]);
    // A second foreign key makes the embed ambiguous, but the request names nothing unknown, so
    // the cached relationship is still used (as with PostgREST until it is told to reload)...
    await server.db
      .serverWork()
      .exec(`alter table spoke add column other_hub int references hub (id);`);
    expect((await db.from('spoke').select('id, hub(id)')).status).toBe(200);
    // ...until the hook reloads the cache.
    await reloadSchemaCache(server.db);
    const after = await db.from('spoke').select('id, hub(id)');
    expect(after.status).toBe(300);
    expect(after.error?.code).toBe('PGRST201');
  });
});
