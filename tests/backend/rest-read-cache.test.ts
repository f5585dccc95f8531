import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriteClock } from '../../server/db/write-clock.ts';
import { ReadCache, readCacheFor, type CachedAnswer } from '../../server/rest/read-cache.ts';
import { unrepeatableRelations } from '../../server/rest/unrepeatable-reads.ts';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const answer = (text: string): CachedAnswer => ({
  status: 200,
  headers: [['content-type', 'application/json']],
  body: new TextEncoder().encode(text),
});
const text = (a: CachedAnswer | undefined) => (a?.body ? new TextDecoder().decode(a.body) : a);

/** The ticket of a read of `key` asked for a second time: the one whose answer may be kept. */
const secondTicket = (cache: ReadCache, key: string) => {
  cache.ticket(key);
  return cache.ticket(key);
};

describe('the REST read cache', () => {
  const options = { ttlMs: 1000, maxEntryBytes: 100, maxTotalBytes: 250, maxAskedKeys: 3 };

  it('keeps answers of policies whose helpers ask private.caller_context, and nothing else that reads the snapshot', () => {
    const keeps = `declare _key text := array[pg_current_snapshot()::text]::text;
      begin perform set_config('steward.caller_context', _key, true); return '{}'; end`;
    const helper = (schema: string, name: string, source: string) => ({
      kind: 'function' as const,
      schema,
      name,
      source,
    });
    const policy = (name: string, helper: string) => ({
      kind: 'relation' as const,
      schema: 'public',
      name,
      source: `(organization_id = ( SELECT ${helper}('viewer'::text) AS helper))`,
    });
    const setConfig = {
      kind: 'opaque' as const,
      schema: 'pg_catalog',
      name: 'set_config',
      source: '',
    };
    const unrepeatable = unrepeatableRelations([
      setConfig,
      helper('private', 'caller_context', keeps),
      helper(
        'private',
        'caller_organization_id',
        'begin return (private.caller_context())[1]; end',
      ),
      helper('private', 'caller_hidden_categories', 'begin return now(); end'),
      helper('public', 'snapshot_of_my_own', keeps),
      policy('documents', 'private.caller_organization_id'),
      policy('snapshots', 'public.snapshot_of_my_own'),
      policy('notices', 'private.caller_hidden_categories'),
    ]);
    expect([...unrepeatable].sort()).toEqual(['notices', 'snapshots']);
    // The same function's name in another schema is not ours: its calls are matched as usual,
    // and so are those of every function that merely shares its name.
    expect(
      unrepeatableRelations([
        setConfig,
        helper('tenant', 'caller_context', keeps),
        helper('tenant', 'my_helper', 'begin return (tenant.caller_context())[1]; end'),
        policy('tenant_rows', 'tenant.my_helper'),
      ]),
    ).toEqual(new Set(['tenant_rows']));
  });

  it('keeps an answer until anything may have written', async () => {
    const clock = new WriteClock();
    const cache = new ReadCache(clock, options);
    cache.set('k', secondTicket(cache, 'k'), answer('[1]'));
    expect(text(cache.get('k'))).toBe('[1]');
    expect(text(cache.get('k'))).toBe('[1]');
    await clock.around(async () => {});
    expect(cache.get('k')).toBeUndefined();
  });

  it('does not keep an answer read while a write ran or after one started', async () => {
    const clock = new WriteClock();
    const cache = new ReadCache(clock, options);
    // A write started after the read did: the read may have seen either state.
    const ticket = secondTicket(cache, 'after');
    expect(ticket).not.toBeNull();
    await clock.around(async () => {});
    cache.set('after', ticket, answer('[1]'));
    expect(cache.get('after')).toBeUndefined();
    // A write running when the read started and still running at its end.
    await clock.around(async () => {
      const during = secondTicket(cache, 'during');
      expect(during).toBeNull();
      cache.set('during', during, answer('[2]'));
    });
    expect(cache.get('during')).toBeUndefined();
  });

  it('forgets an answer after its time to live, for policies that read the clock', () => {
    let now = 0;
    const cache = new ReadCache(new WriteClock(), { ...options, now: () => now });
    cache.set('k', secondTicket(cache, 'k'), answer('[1]'));
    now = 999;
    expect(text(cache.get('k'))).toBe('[1]');
    now = 1000;
    expect(cache.get('k')).toBeUndefined();
  });

  it('keys on the method, the URL and every header Postgres sees, cookies aside', () => {
    // Headers as Node's rawHeaders gives them: names and values in turn, as they came.
    const key = (method: string, url: string, headers: Record<string, string>) =>
      ReadCache.keyOf(method, url, Object.entries(headers).flat());
    const base = key('GET', '/rest/v1/t?select=*', { authorization: 'Bearer a', apikey: 'k' });
    expect(
      key('GET', '/rest/v1/t?select=*', { authorization: 'Bearer a', apikey: 'k', cookie: 'x' }),
    ).toBe(base);
    expect(
      key('GET', '/rest/v1/t?select=*', { authorization: 'Bearer a', apikey: 'k', Cookie: 'x' }),
    ).toBe(base);
    // The same headers in another order or case: another key, so a miss, never a wrong answer.
    expect(key('GET', '/rest/v1/t?select=*', { apikey: 'k', authorization: 'Bearer a' })).not.toBe(
      base,
    );
    expect(key('GET', '/rest/v1/t?select=*', { Authorization: 'Bearer a', apikey: 'k' })).not.toBe(
      base,
    );
    // A header sent twice counts with both values (Postgres sees them joined).
    expect(
      ReadCache.keyOf('GET', '/rest/v1/t?select=*', [
        'authorization',
        'Bearer a',
        'apikey',
        'k',
        'x-extra',
        '1',
      ]),
    ).not.toBe(
      ReadCache.keyOf('GET', '/rest/v1/t?select=*', [
        'authorization',
        'Bearer a',
        'apikey',
        'k',
        'x-extra',
        '1',
        'x-extra',
        '2',
      ]),
    );
    expect(key('HEAD', '/rest/v1/t?select=*', { authorization: 'Bearer a', apikey: 'k' })).not.toBe(
      base,
    );
    expect(key('GET', '/rest/v1/t?select=id', { authorization: 'Bearer a', apikey: 'k' })).not.toBe(
      base,
    );
    expect(key('GET', '/rest/v1/t?select=*', { authorization: 'Bearer b', apikey: 'k' })).not.toBe(
      base,
    );
    expect(
      key('GET', '/rest/v1/t?select=*', { authorization: 'Bearer a', apikey: 'k', prefer: 'x' }),
    ).not.toBe(base);
  });

  it('keeps no answer over its size limit and drops the least recently used beyond the total', () => {
    const cache = new ReadCache(new WriteClock(), options);
    cache.set('big', secondTicket(cache, 'big'), answer('x'.repeat(101)));
    expect(cache.get('big')).toBeUndefined();
    for (const k of ['a', 'b', 'c']) cache.set(k, secondTicket(cache, k), answer(k.repeat(80)));
    // 3 × 81 bytes fit in 250; reading "a" makes "b" the least recently used.
    expect(cache.get('a')).toBeDefined();
    cache.set('d', secondTicket(cache, 'd'), answer('d'.repeat(80)));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
  });

  it('keeps an answer only for a key asked for twice within its lifetime', () => {
    let now = 0;
    const cache = new ReadCache(new WriteClock(), { ...options, now: () => now });
    // Asked once: not kept.
    cache.set('once', cache.ticket('once'), answer('[1]'));
    expect(cache.get('once')).toBeUndefined();
    // Asked again within the answer's lifetime: kept.
    cache.set('once', cache.ticket('once'), answer('[1]'));
    expect(text(cache.get('once'))).toBe('[1]');
    // Asked again only after a lifetime: as if asked once.
    cache.ticket('late');
    now = 1000;
    cache.set('late', cache.ticket('late'), answer('[2]'));
    expect(cache.get('late')).toBeUndefined();
    // At most `maxAskedKeys` keys are remembered, the oldest forgotten first.
    for (const k of ['p', 'q', 'r', 's']) cache.ticket(k);
    cache.set('p', cache.ticket('p'), answer('[3]'));
    expect(cache.get('p')).toBeUndefined();
    cache.set('s', cache.ticket('s'), answer('[4]'));
    expect(text(cache.get('s'))).toBe('[4]');
  });

  it('remembers the keys asked for by all of each key: a key that differs in one header is new', () => {
    const cache = new ReadCache(new WriteClock(), {
      ...options,
      maxEntryBytes: 10_000,
      maxTotalBytes: 100_000,
    });
    // Two callers' keys of one URL, their tokens differing only in their last character.
    const key = (token: string) =>
      ReadCache.keyOf('GET', '/rest/v1/notes?select=id', [
        'Accept-Profile',
        'public',
        'Authorization',
        `Bearer ${'x'.repeat(600)}${token}`,
      ]);
    cache.ticket(key('a'));
    // The other caller's first read is not a second one: nothing kept, nothing answered.
    cache.set(key('b'), cache.ticket(key('b')), answer('[5]'));
    expect(cache.get(key('b'))).toBeUndefined();
    expect(cache.get(key('a'))).toBeUndefined();
    // Each key's own second read is.
    cache.set(key('a'), cache.ticket(key('a')), answer('[6]'));
    expect(text(cache.get(key('a')))).toBe('[6]');
    expect(cache.get(key('b'))).toBeUndefined();
  });
});

// Through supabase-js against the running server: every kind of write any service makes is
// seen by the very next read, however often the same read was made before.
describe('reads after writes, through the API', () => {
  let server: TestServer;
  let org: Organisation;
  let other: Organisation;
  let member: Person;

  const titles = async (person: Person) =>
    unwrap(
      await person.client.from('documents').select('name').order('name'),
      'read documents',
    ).map((row: { name: string }) => row.name);

  const addDocument = async (owner: Organisation, name: string) =>
    unwrap(
      await owner.master.client
        .from('documents')
        .insert({
          organization_id: owner.id,
          name,
          category: 'Reports',
          size: 1,
          file_path: `documents/${owner.id}/${name}`,
          tags: [],
          status: 'Active',
        })
        .select('id')
        .single<{ id: string }>(),
      `insert ${name}`,
    ).id;

  beforeAll(async () => {
    server = await startTestServer();
    org = await createOrganisation(server, 'Cache Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, org, 'user');
    await addDocument(org, 'a.txt');
    await addDocument(other, 'theirs.txt');
    // Reading the new documents' text writes in the background; done before the reads count.
    await server.jobs.runDue();
  });
  afterAll(() => server?.close());

  it('shows each caller their own rows for the same URL, and the next read sees every write', async () => {
    expect(await titles(member)).toEqual(['a.txt']);
    expect(await titles(member)).toEqual(['a.txt']);
    expect(await titles(other.master)).toEqual(['theirs.txt']);
    // On PGlite the repeated read was answered from the cache (PostgreSQL has none).
    const cache = readCacheFor(server.db.writeClock);
    if (server.db.kind === 'pglite') expect(cache?.size).toBeGreaterThan(0);
    else expect(cache).toBeNull();

    const id = await addDocument(org, 'b.txt');
    expect(await titles(member)).toEqual(['a.txt', 'b.txt']);
    unwrap(
      await org.master.client.from('documents').update({ name: 'c.txt' }).eq('id', id).select(),
      'rename',
    );
    expect(await titles(member)).toEqual(['a.txt', 'c.txt']);
    unwrap(await org.master.client.rpc('delete_documents', { document_ids: [id] }), 'delete');
    expect(await titles(member)).toEqual(['a.txt']);
  });

  it('shows a deactivated member nothing from their very next read', async () => {
    expect(await titles(member)).toEqual(['a.txt']);
    expect(await titles(member)).toEqual(['a.txt']);
    unwrap(
      await org.master.client.rpc('deactivate_user', { user_id: member.userId }),
      'deactivate',
    );
    expect(await titles(member)).toEqual([]);
    unwrap(
      await org.master.client.rpc('reactivate_user', { user_id: member.userId }),
      'reactivate',
    );
    expect(await titles(member)).toEqual(['a.txt']);
  });
  // Tables and views whose reads change with no write in between: through the clock (a view
  // or a policy that reads it, a filter value such as `now`) or through chance (`random()`).
  const schema = `
    create table public.cache_notices (id int primary key, title text, expires_at timestamptz);
    create view public.cache_current_notices as
      select id, title from public.cache_notices where expires_at > now();
    create function public.cache_still_valid(at timestamptz) returns boolean
      language sql stable as 'select at > clock_timestamp()';
    create table public.cache_offers (id int primary key, title text, expires_at timestamptz);
    alter table public.cache_offers enable row level security;
    create policy cache_offers_read on public.cache_offers for select to anon
      using (public.cache_still_valid(expires_at));
    create table public.cache_bookings (
      id int primary key, who text,
      offer_id int constraint cache_bookings_offer_fkey references public.cache_offers);
    create view public.cache_dice as select floor(random() * 1e12)::int8 as roll;
    create table public.cache_notes (id int primary key, due text);
    insert into public.cache_notes values (1, 'now');
    grant select on public.cache_notices, public.cache_current_notices, public.cache_offers,
      public.cache_bookings, public.cache_dice, public.cache_notes to anon;
  `;
  let schemaCreated = false;
  const createSchema = async () => {
    if (!schemaCreated) await server.db.serverWork().exec(schema);
    schemaCreated = true;
  };
  const names = (rows: { title: string }[]) => rows.map((row) => row.title);

  /**
   * Reads each of `reads` twice shortly before rows expire (so that a copy kept then would
   * still be within the cache's 1 s lifetime just after) and again just after, with no write in
   * between, and expects `before` and then `after`. The rows (a notice and an offer, with a
   * booking of the offer) expire 2 s after they are written. On a loaded machine the reads
   * before may come back too late to have seen the rows; such a round proves nothing, and the
   * next one starts afresh.
   */
  async function acrossExpiry(
    reads: Record<string, () => Promise<unknown>>,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ) {
    await createSchema();
    const readAll = async () => {
      const answers: Record<string, unknown> = {};
      for (const [name, read] of Object.entries(reads)) answers[name] = await read();
      return answers;
    };
    for (let round = 1; round <= 5; round++) {
      await server.db.serverWork().exec(
        `delete from public.cache_bookings; delete from public.cache_notices;
         delete from public.cache_offers;`,
      );
      const { rows } = await server.db.serverWork().query<{ expires: number }>(
        `with notice as (
           insert into public.cache_notices values ($1, 'Fire drill', now() + interval '2 seconds')
           returning expires_at
         ), offer as (
           insert into public.cache_offers values ($1, 'Hall hire', now() + interval '2 seconds')
           returning id
         ), booking as (
           insert into public.cache_bookings select $1, 'Youth group', id from offer
         )
         select (extract(epoch from expires_at) * 1000)::float8 as expires from notice`,
        [round],
      );
      const expires = Number(rows[0]!.expires);
      const until = (ms: number) =>
        new Promise((resolve) => setTimeout(resolve, Math.max(0, expires + ms - Date.now())));
      await until(-800);
      // Twice: an answer is kept only for a read asked for again within its lifetime.
      await readAll();
      const seen = await readAll();
      if (Date.now() >= expires - 50) continue;
      expect(seen).toEqual(before);
      // Past the expiry, with no write in between.
      await until(150);
      expect(await readAll()).toEqual(after);
      return;
    }
    expect.fail('no round read the rows before they expired');
  }

  it('never answers from a copy what depends on the clock: a view or a policy that reads it', async () => {
    const anon = server.anon();
    const read = (table: string) => async () =>
      names(unwrap(await anon.from(table).select('title'), `read ${table}`));
    await acrossExpiry(
      {
        view: read('cache_current_notices'),
        policy: read('cache_offers'),
        table: read('cache_notices'),
      },
      { view: ['Fire drill'], policy: ['Hall hire'], table: ['Fire drill'] },
      { view: [], policy: [], table: ['Fire drill'] },
    );
    // What does not read the clock is still cached on PGlite.
    if (server.db.kind === 'pglite') {
      expect(readCacheFor(server.db.writeClock)?.size).toBeGreaterThan(0);
    }
  });

  it('never answers from a copy an embed whose policy reads the clock, however it is named', async () => {
    const anon = server.anon();
    const bookings = (select: string) => async () =>
      unwrap(await anon.from('cache_bookings').select(select), `read bookings with ${select}`);
    await acrossExpiry(
      {
        byColumn: bookings('who, offer:offer_id(title)'),
        byConstraint: bookings('who, cache_bookings_offer_fkey(title)'),
        byTable: bookings('who, cache_offers(title)'),
      },
      {
        byColumn: [{ who: 'Youth group', offer: { title: 'Hall hire' } }],
        byConstraint: [{ who: 'Youth group', cache_bookings_offer_fkey: { title: 'Hall hire' } }],
        byTable: [{ who: 'Youth group', cache_offers: { title: 'Hall hire' } }],
      },
      {
        byColumn: [{ who: 'Youth group', offer: null }],
        byConstraint: [{ who: 'Youth group', cache_bookings_offer_fkey: null }],
        byTable: [{ who: 'Youth group', cache_offers: null }],
      },
    );
  });

  it('never answers from a copy a filter on the time of the request (now)', async () => {
    const anon = server.anon();
    const notices = () => anon.from('cache_notices').select('title');
    await acrossExpiry(
      {
        // Read first, twice, so that `now` is planned from this shape's template
        // (read-templates.ts): whether an answer may be kept is decided by each request's own
        // values.
        past: async () => names(unwrap(await notices().gt('expires_at', '2000-01-01'), 'gt.2000')),
        pastAgain: async () =>
          names(unwrap(await notices().gt('expires_at', '2000-01-02'), 'gt.2000-01-02')),
        now: async () => names(unwrap(await notices().gt('expires_at', 'now'), 'gt.now')),
        // Postgres reads the value as a time whatever its case and spaces.
        spaced: async () => names(unwrap(await notices().gt('expires_at', ' NOW '), 'gt. NOW ')),
        inOr: async () =>
          names(unwrap(await notices().or('expires_at.gt.now,title.eq.none'), 'or=(gt.now)')),
      },
      {
        past: ['Fire drill'],
        pastAgain: ['Fire drill'],
        now: ['Fire drill'],
        spaced: ['Fire drill'],
        inOr: ['Fire drill'],
      },
      { past: ['Fire drill'], pastAgain: ['Fire drill'], now: [], spaced: [], inOr: [] },
    );
  });

  it('never answers from a copy a view over chance (random())', async () => {
    await createSchema();
    const anon = server.anon();
    const roll = async () =>
      unwrap(await anon.from('cache_dice').select('roll').single<{ roll: number }>(), 'roll').roll;
    // The first read may load the new view into the schema cache (see the test above).
    await roll();
    const rolls = new Set<number>();
    for (let i = 0; i < 3; i++) rolls.add(await roll());
    // Two equal rolls out of 10^12 would be chance once in 10^12 runs.
    expect(rolls.size).toBe(3);
  });

  it('never answers from a copy a cast in select that reads stored text as a time', async () => {
    await createSchema();
    const anon = server.anon();
    const due = async () =>
      unwrap(
        await anon.from('cache_notes').select('due::timestamptz').single<{ due: string }>(),
        'due',
      ).due;
    // The first read may load the new table into the schema cache (a catalogue query, which
    // the write clock counts), so the second is the one a cache would keep.
    await due();
    const earlier = await due();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The stored 'now' is read as the time of each statement.
    expect(Date.parse(await due())).toBeGreaterThan(Date.parse(earlier));
  });
});
