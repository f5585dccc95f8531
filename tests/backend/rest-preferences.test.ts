import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rest } from './rest-helpers.ts';

// `Prefer: tx=rollback` and `tx=commit` as PostgREST answers them when its `db-tx-end` allows
// the override (`commit-allow-override`, as Supabase's own postgrest-js suite runs it; the
// default configuration, which ignores them, is checked in unsupported-answers.test.ts), and
// `Prefer: timezone` as PostgREST 12 to 14 apply it.

let server: TestServer;
let db: SupabaseClient;

beforeAll(async () => {
  server = await startTestServer({
    schema: 'platform',
    env: { API_DB_TX_END: 'commit-allow-override' },
  });
  db = server.service();
  await server.db.serverWork().exec(`
    create table members (id int primary key, name text not null);
    insert into members values (1, 'Ann');
    create table attendance (
      id int primary key,
      member_id int references members (id) deferrable initially deferred
    );
    create function add_member(id int, name text) returns int language sql
      as 'insert into members values (id, name) returning id';
    create table events (id int primary key, at timestamptz not null);
    insert into events values (1, '2023-10-18 12:37:59.611+00');
    create function event_time(id int) returns timestamptz language sql stable
      as 'select at from events where events.id = event_time.id';
    grant select on events to anon;
  `);
});
afterAll(async () => {
  await server?.close();
});

const names = async () =>
  (await db.from('members').select('name').order('id')).data?.map(
    (row: { name: string }) => row.name,
  );

describe('Prefer: tx=rollback, allowed by db_tx_end = "commit-allow-override"', () => {
  it('answers an insert, update or delete as if it committed, and keeps nothing', async () => {
    const inserted = await db.from('members').insert({ id: 2, name: 'Bob' }).select().rollback();
    expect(inserted).toMatchObject({ status: 201, data: [{ id: 2, name: 'Bob' }], error: null });
    const updated = await db
      .from('members')
      .update({ name: 'Anna' })
      .eq('id', 1)
      .select()
      .rollback();
    expect(updated).toMatchObject({ status: 200, data: [{ id: 1, name: 'Anna' }], error: null });
    const deleted = await db.from('members').delete().eq('id', 1).select().rollback();
    expect(deleted).toMatchObject({ status: 200, data: [{ id: 1, name: 'Ann' }], error: null });
    expect(await names()).toEqual(['Ann']);
  });

  it('undoes what a function changed, and says so in Preference-Applied', async () => {
    const called = await db.rpc('add_member', { id: 3, name: 'Cat' }).rollback();
    expect(called).toMatchObject({ status: 200, data: 3, error: null });
    expect(await names()).toEqual(['Ann']);
    const raw = await rest(server, '/members', {
      method: 'POST',
      body: JSON.stringify({ id: 4, name: 'Dan' }),
      headers: { Prefer: 'return=minimal, tx=rollback' },
    });
    expect(raw.status).toBe(201);
    expect(raw.headers.get('preference-applied')).toBe('return=minimal, tx=rollback');
    expect(await names()).toEqual(['Ann']);
  });

  it('still reports what a commit would refuse: deferred constraints are checked', async () => {
    const refused = await db
      .from('attendance')
      .insert({ id: 1, member_id: 99 })
      .select()
      .rollback();
    expect(refused.status).toBe(409);
    expect(refused.error?.code).toBe('23503');
    const allowed = await db.from('attendance').insert({ id: 1, member_id: 1 }).select().rollback();
    expect(allowed).toMatchObject({ status: 201, data: [{ id: 1, member_id: 1 }] });
    expect((await db.from('attendance').select('id')).data).toEqual([]);
  });

  it('commits with tx=commit, or without a preference, as configured', async () => {
    const committed = await rest(server, '/members', {
      method: 'POST',
      body: JSON.stringify({ id: 5, name: 'Eve' }),
      headers: { Prefer: 'tx=commit' },
    });
    expect(committed.status).toBe(201);
    expect(committed.headers.get('preference-applied')).toBe('tx=commit');
    expect((await db.from('members').insert({ id: 6, name: 'Fay' })).status).toBe(201);
    expect(await names()).toEqual(['Ann', 'Eve', 'Fay']);
  });

  it('names tx=rollback on a read too, where there is nothing to undo', async () => {
    const read = await rest(server, '/members?select=name&id=eq.1', {
      headers: { Prefer: 'tx=rollback' },
    });
    expect(read).toMatchObject({ status: 200, json: [{ name: 'Ann' }] });
    expect(read.headers.get('preference-applied')).toBe('tx=rollback');
  });
});

describe('Prefer: timezone', () => {
  const LOS_ANGELES = '2023-10-18T05:37:59.611-07:00';
  const UTC = '2023-10-18T12:37:59.611+00:00';
  const at = (zone?: string) => {
    const query = server.anon().from('events').select('at').eq('id', 1);
    return zone === undefined ? query : query.setHeader('Prefer', zone);
  };

  it('writes the times of the answer in the zone asked for, each request its own', async () => {
    // The server's own zone first (UTC here), which the read cache may keep on PGlite.
    expect((await at()).data).toEqual([{ at: UTC }]);
    expect((await at()).data).toEqual([{ at: UTC }]);
    expect((await at('timezone=America/Los_Angeles')).data).toEqual([{ at: LOS_ANGELES }]);
    expect((await at('timezone=Asia/Kolkata')).data).toEqual([
      { at: '2023-10-18T18:07:59.611+05:30' },
    ]);
    expect((await at()).data).toEqual([{ at: UTC }]);
  });

  it('applies to what a write returns and to what a function returns', async () => {
    const written = await db
      .from('events')
      .insert({ id: 2, at: '2024-01-01T12:00:00Z' })
      .select('at')
      .setHeader('Prefer', 'return=representation, timezone=America/Los_Angeles');
    expect(written).toMatchObject({ status: 201, data: [{ at: '2024-01-01T04:00:00-08:00' }] });
    const called = await db
      .rpc('event_time', { id: 1 })
      .setHeader('Prefer', 'timezone=America/Los_Angeles');
    expect(called).toMatchObject({ status: 200, data: LOS_ANGELES });
  });

  it('says so in Preference-Applied', async () => {
    const answer = await rest(server, '/events?select=at&id=eq.1', {
      headers: { Prefer: 'count=exact, timezone=America/Los_Angeles' },
    });
    expect(answer).toMatchObject({ status: 200, json: [{ at: LOS_ANGELES }] });
    expect(answer.headers.get('preference-applied')).toBe(
      'count=exact, timezone=America/Los_Angeles',
    );
  });

  it('ignores a zone Postgres does not know, and refuses it with handling=strict', async () => {
    const ignored = await rest(server, '/events?select=at&id=eq.1', {
      headers: { Prefer: 'timezone=Jupiter/Red_Spot' },
    });
    expect(ignored).toMatchObject({ status: 200, json: [{ at: UTC }] });
    expect(ignored.headers.get('preference-applied')).toBeNull();
    const refused = await at('handling=strict, timezone=Jupiter/Red_Spot');
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: timezone=Jupiter/Red_Spot',
    });
    // A name is matched exactly, as PostgREST matches it.
    const lowerCase = await at('handling=strict, timezone=america/los_angeles');
    expect(lowerCase.error?.code).toBe('PGRST122');
  });
});
