import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganisation, unwrap, type Organisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { enrol, signIn } from './totp-helpers.ts';

// Issue 24, item 5: one-time recovery codes, a way back after losing the phone, and an
// organisation that always keeps a master admin who can sign in; through supabase-js against
// the running server.

describe('recovery codes', () => {
  let server: TestServer;
  let church: Organisation;

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Recovery Church');
  });
  afterAll(() => server?.close());

  it('are made once two-factor is proved, and a code signs in once, in place of the phone', async () => {
    const member = await addMember(server, church, 'user', 'phone-loser');
    await enrol(member.client);
    const codes = unwrap(
      await member.client.rpc('generate_recovery_codes'),
      'generate_recovery_codes',
    ) as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/);
    expect(unwrap(await member.client.rpc('recovery_codes_left'), 'left')).toBe(10);

    // The phone is lost: the password opens an aal1 session that reaches nothing of the
    // organisation's until the second factor is proved…
    const lost = await signIn(server, member);
    const before = await lost.from('organizations').select('id');
    expect(before.data ?? [], JSON.stringify(before.error)).toEqual([]);
    // …a wrong code is refused and counted…
    expect(unwrap(await lost.rpc('redeem_recovery_code', { code: 'aaaa-bbbb-cccc' }), 'x')).toBe(
      -1,
    );
    // …a recovery code (typed in capitals, without dashes) removes the factor.
    const typed = codes[3]!.replaceAll('-', '').toUpperCase();
    expect(unwrap(await lost.rpc('redeem_recovery_code', { code: typed }), 'redeem')).toBe(1);
    const { data: user } = await server.service().auth.admin.getUserById(member.userId);
    expect(user.user?.factors ?? []).toEqual([]);
    // This session reaches the organisation again; the app asks to set two-factor up anew.
    const after = await lost.from('organizations').select('id');
    expect(after.data).toEqual([{ id: church.id }]);

    // The same code, and every other one, is spent.
    const again = await signIn(server, member);
    expect(unwrap(await again.rpc('redeem_recovery_code', { code: codes[3] }), 'again')).toBe(-1);
    expect(unwrap(await again.rpc('redeem_recovery_code', { code: codes[4] }), 'other')).toBe(-1);
    expect(unwrap(await again.rpc('recovery_codes_left'), 'left')).toBe(0);
    const { data: history } = await server
      .service()
      .from('activity_log')
      .select('kind')
      .eq('organization_id', church.id)
      .eq('kind', 'member.recovery_code_used');
    expect(history).toHaveLength(1);
  });

  it('stop guessing after five wrong codes in 15 minutes', async () => {
    const member = await addMember(server, church, 'user', 'guesser');
    await enrol(member.client);
    const codes = unwrap(await member.client.rpc('generate_recovery_codes'), 'codes') as string[];
    const lost = await signIn(server, member);
    for (let i = 0; i < 5; i += 1) {
      expect(
        unwrap(await lost.rpc('redeem_recovery_code', { code: `0000-0000-000${i}` }), 'x'),
      ).toBe(-1);
    }
    const refused = await lost.rpc('redeem_recovery_code', { code: codes[0] });
    expect(refused.error?.message).toBe(
      'Too many wrong recovery codes; please try again in 15 minutes',
    );
  });

  it('are refused without a proved second factor', async () => {
    const member = await addMember(server, church, 'user', 'no-factor');
    const refused = await member.client.rpc('generate_recovery_codes');
    expect(refused.error?.message).toBe('Set up two-factor sign-in first');
    await enrol(member.client);
    const aal1 = await signIn(server, member);
    const notProved = await aal1.rpc('generate_recovery_codes');
    expect(notProved.error?.message).toBe('Sign in with your two-factor code first');
  });
});

describe('an organisation keeps a master admin who can sign in', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('refuses to deactivate or demote the last master admin on every path, and allows it with a second', async () => {
    const church = await createOrganisation(server, 'Keeper Church');
    const db = server.db;
    // The service role (or any future function) cannot leave the organisation without one.
    await expect(
      db
        .serverWork()
        .query(`update public.user_profiles set is_active = false where id = $1`, [
          church.master.userId,
        ]),
    ).rejects.toThrow('An organization must keep a master admin who can sign in');
    await expect(
      db
        .serverWork()
        .query(`update public.user_profiles set role = 'admin' where id = $1`, [
          church.master.userId,
        ]),
    ).rejects.toThrow('An organization must keep a master admin who can sign in');

    // A second master admin, made by the first, can help her and lets her step down.
    const second = await addMember(server, church, 'admin', 'second-master');
    unwrap(
      await church.master.client.rpc('make_master_admin', { user_id: second.userId }),
      'make_master_admin',
    );
    const { rows } = await db
      .serverWork()
      .query<{ role: string }>(`select role from public.user_profiles where id = $1`, [
        second.userId,
      ]);
    expect(rows[0]?.role).toBe('master_admin');
    await db
      .serverWork()
      .query(`update public.user_profiles set is_active = false where id = $1`, [
        church.master.userId,
      ]);
    // Now the second is the last one.
    await expect(
      db
        .serverWork()
        .query(`update public.user_profiles set is_active = false where id = $1`, [second.userId]),
    ).rejects.toThrow('An organization must keep a master admin who can sign in');
  });

  it('lets only a master admin make another, and only of an active admin', async () => {
    const church = await createOrganisation(server, 'Promotion Church');
    const admin = await addMember(server, church, 'admin', 'plain-admin');
    const user = await addMember(server, church, 'user', 'plain-user');
    expect(
      (await admin.client.rpc('make_master_admin', { user_id: user.userId })).error?.message,
    ).toBe('Only master admins can make a master admin');
    expect(
      (await church.master.client.rpc('make_master_admin', { user_id: user.userId })).error
        ?.message,
    ).toBe('Only an active admin can become a master admin');
  });
});
