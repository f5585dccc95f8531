import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganisation, errorMessage, type Person } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, authRequest, jwtPayload } from './auth-helpers.ts';
import { uploadDocument } from './document-helpers.ts';
import { codeFor, enrol, signIn as signInWithPassword } from './totp-helpers.ts';

// Two-factor sign-in through unmodified supabase-js `auth.mfa.*`: a TOTP factor enrolled with
// a QR code, codes made here from the secret with otpauth (as an authenticator app makes
// them), the `aal`/`amr` claims, and the organisation rule that the database enforces.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const signIn = (person: Person) => signInWithPassword(server, person);

describe('TOTP factors', () => {
  it('enrols with a QR code, verifies a code, and raises the session to aal2', async () => {
    const church = await createOrganisation(server, 'Enrol Church');
    const client = church.master.client;
    const { data, error } = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Phone',
    });
    expect(error).toBeNull();
    expect(data!.type).toBe('totp');
    expect(data!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    // supabase-js does not encode the SVG in its data URI: a `#` would cut the image short.
    expect(data!.totp.qr_code).not.toContain('#');
    expect(data!.totp.uri).toMatch(/^otpauth:\/\/totp\/Steward:/);
    expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);

    // The seed is stored sealed, never as it was shown.
    const stored = await server.db
      .serverWork()
      .query<{ secret: string }>('select secret from auth.mfa_factors where id = $1', [data!.id]);
    expect(stored.rows[0]!.secret).not.toContain(data!.totp.secret);

    const before = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const challenge = await client.auth.mfa.challenge({ factorId: data!.id });
    expect(challenge.error).toBeNull();
    const wrong = await client.auth.mfa.verify({
      factorId: data!.id,
      challengeId: challenge.data!.id,
      code: codeFor(data!.totp.secret, 5),
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const verified = await client.auth.mfa.verify({
      factorId: data!.id,
      challengeId: challenge.data!.id,
      code: codeFor(data!.totp.secret),
    });
    expect(verified.error).toBeNull();
    const claims = jwtPayload(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((entry) => entry.method)).toEqual([
      'totp',
      'password',
    ]);
    const after = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(after.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data!.totp).toEqual([
      expect.objectContaining({ id: data!.id, friendly_name: 'Phone', status: 'verified' }),
    ]);
    // The seed never appears in the user object.
    expect(JSON.stringify((await client.auth.getUser()).data)).not.toContain(data!.totp.secret);

    // A refreshed session stays at aal2.
    const refreshed = await client.auth.refreshSession();
    expect(jwtPayload(refreshed.data.session!.access_token).aal).toBe('aal2');
  });

  it('asks a second step at sign-in; a code works once, drift of one step is allowed', async () => {
    const church = await createOrganisation(server, 'Second Step Church');
    const { factorId, secret, code } = await enrol(church.master.client);

    const client = await signIn(church.master);
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    // The code the enrolment used cannot be used again, even within its window.
    const replay = await client.auth.mfa.challengeAndVerify({ factorId, code });
    expect(replay.error).toMatchObject({ code: 'mfa_verification_failed' });
    // A clock a step ahead still works.
    const ahead = await client.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret, 1) });
    expect(ahead.error).toBeNull();
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
      'aal2',
    );
  });

  it('refuses codes for a while after five wrong ones', async () => {
    const church = await createOrganisation(server, 'Guess Church');
    const { factorId, secret } = await enrol(church.master.client);
    const client = await signIn(church.master);
    for (let i = 0; i < 5; i += 1) {
      const attempt = await client.auth.mfa.challengeAndVerify({ factorId, code: '000000' });
      expect(attempt.error?.code).toBe('mfa_verification_failed');
    }
    const blocked = await client.auth.mfa.challengeAndVerify({
      factorId,
      code: codeFor(secret, 1),
    });
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('unenrols only from an aal2 session, and replaces a pending enrolment', async () => {
    const church = await createOrganisation(server, 'Unenrol Church');
    const first = await church.master.client.auth.mfa.enroll({ factorType: 'totp' });
    const second = await church.master.client.auth.mfa.enroll({ factorType: 'totp' });
    const pending = await server.db
      .serverWork()
      .query('select id from auth.mfa_factors where user_id = $1', [church.master.userId]);
    expect(pending.rows).toEqual([{ id: second.data!.id }]);
    expect(first.data!.id).not.toBe(second.data!.id);
    await church.master.client.auth.mfa.challengeAndVerify({
      factorId: second.data!.id,
      code: codeFor(second.data!.totp.secret),
    });

    const weak = await signIn(church.master);
    const refused = await weak.auth.mfa.unenroll({ factorId: second.data!.id });
    expect(refused.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const removed = await church.master.client.auth.mfa.unenroll({ factorId: second.data!.id });
    expect(removed.error).toBeNull();
    expect((await church.master.client.auth.mfa.listFactors()).data!.all).toEqual([]);
  });

  it('asks an aal2 session to change the address or the password of an account with a factor', async () => {
    const church = await createOrganisation(server, 'Takeover Church');
    const member = await addMember(server, church, 'user', 'guarded');
    const factor = await enrol(member.client);
    const weak = await signIn(member);

    const password = await weak.auth.updateUser({
      password: 'taken over',
      current_password: PASSWORD,
    });
    expect(password.error).toMatchObject({
      status: 401,
      code: 'insufficient_aal',
      message: 'AAL2 session is required to update email or password when MFA is enabled.',
    });
    const email = await weak.auth.updateUser({ email: 'thief@example.test' });
    expect(email.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
    const stored = await server.db
      .serverWork()
      .query<{ email: string; email_change: string | null }>(
        'select email, email_change from auth.users where id = $1',
        [member.userId],
      );
    expect(stored.rows[0]).toMatchObject({ email: member.email, email_change: '' });
    // The rest of the profile is not guarded.
    expect((await weak.auth.updateUser({ data: { nickname: 'Sam' } })).error).toBeNull();

    await weak.auth.mfa.challengeAndVerify({
      factorId: factor.factorId,
      code: codeFor(factor.secret, 1),
    });
    const changed = await weak.auth.updateUser({
      password: 'changed with the code',
      current_password: PASSWORD,
    });
    expect(changed.error).toBeNull();
    const again = await server.anon().auth.signInWithPassword({
      email: member.email,
      password: 'changed with the code',
    });
    expect(again.error).toBeNull();
  });

  it('answers malformed requests with GoTrue errors', async () => {
    const church = await createOrganisation(server, 'Errors Church');
    const token = (await church.master.client.auth.getSession()).data.session!.access_token;
    const phone = await authRequest(server, '/factors', { token, body: { factor_type: 'phone' } });
    expect(phone.status).toBe(422);
    const other = await authRequest(server, '/factors', { token, body: { factor_type: 'sms' } });
    expect(other.status).toBe(400);
    const missing = await authRequest(
      server,
      '/factors/00000000-0000-4000-8000-000000000000/challenge',
      { token, body: {} },
    );
    expect(missing.status).toBe(404);
    const anonymous = await authRequest(server, '/factors', { body: { factor_type: 'totp' } });
    expect(anonymous.status).toBe(403);
  });
});

describe('an organisation that requires two-factor sign-in for admins', () => {
  const REQUIRED = 'Two-factor sign-in is required for admins of this organization';

  it('refuses admins at aal1 everything of the organisation, until they verify a code', async () => {
    const church = await createOrganisation(server, 'Strict Church');
    const admin = await addMember(server, church, 'admin', 'strict-admin');
    const member = await addMember(server, church, 'user', 'strict-member');

    // Turning it on needs the master admin's own second factor first.
    const early = await church.master.client.rpc('set_two_factor_requirement', { required: true });
    expect(errorMessage(early)).toBe(
      'Set up two-factor sign-in for yourself and sign in with it first',
    );
    const notMaster = await admin.client.rpc('set_two_factor_requirement', { required: true });
    expect(errorMessage(notMaster)).toBe(
      'Only master admins can change the two-factor requirement',
    );
    const master = await enrol(church.master.client);
    const on = await church.master.client.rpc('set_two_factor_requirement', { required: true });
    expect(on.error).toBeNull();

    // The admin, signed in with a password only: refused by rpc functions and policies alike.
    const invited = await admin.client.rpc('invite_user', {
      email: 'someone@example.test',
      role: 'user',
      full_name: null,
    });
    expect(errorMessage(invited)).toBe(REQUIRED);
    const listed = await admin.client.from('documents').select('id');
    expect(errorMessage(listed)).toBe(REQUIRED);
    const status = await admin.client.rpc('two_factor_status');
    expect(status.data).toEqual({ required: true, enrolled: false, session_verified: false });
    // Members are not concerned.
    expect((await member.client.from('documents').select('id')).error).toBeNull();

    // Enrolling raises the admin's session to aal2: now it works.
    const factor = await enrol(admin.client);
    expect((await admin.client.from('documents').select('id')).error).toBeNull();
    // A new password-only sign-in of the admin is refused again until the code.
    const again = await signIn(admin);
    expect(errorMessage(await again.from('documents').select('id'))).toBe(REQUIRED);
    await again.auth.mfa.challengeAndVerify({
      factorId: factor.factorId,
      code: codeFor(factor.secret, 1),
    });
    expect((await again.from('documents').select('id')).error).toBeNull();

    // The last factor cannot be removed while the organisation requires one.
    const last = await admin.client.auth.mfa.unenroll({ factorId: factor.factorId });
    expect(last.error).toMatchObject({ status: 422, code: 'mfa_required' });

    // Lost phone: the master admin removes the admin's factor; the admin's sessions end.
    const removed = await church.master.client.rpc('remove_member_two_factor', {
      user_id: admin.userId,
    });
    expect(removed.data).toBe(1);
    expect((await again.auth.getUser()).error).not.toBeNull();
    const fresh = await signIn(admin);
    expect((await fresh.rpc('two_factor_status')).data).toEqual({
      required: true,
      enrolled: false,
      session_verified: false,
    });
    expect(master.factorId).toBeTruthy();
  });
});

describe('someone who set up a second factor, where the organisation does not require one', () => {
  const CODE_FIRST = 'Sign in with your two-factor code first';

  it('reaches nothing of the organisation with a password-only session, and all of it with the code', async () => {
    const church = await createOrganisation(server, 'Careful Church');
    const member = await addMember(server, church, 'user', 'careful');
    const plain = await addMember(server, church, 'user', 'plain');
    const document = await uploadDocument(church.master, church, { name: 'Payroll 2026' });
    const people = [
      { person: member, factor: await enrol(member.client) },
      { person: church.master, factor: await enrol(church.master.client) },
    ];

    for (const { person, factor } of people) {
      const weak = await signIn(person);
      expect(jwtPayload((await weak.auth.getSession()).data.session!.access_token).aal).toBe(
        'aal1',
      );
      // Tables, stored files, signed links and rpc functions: nothing.
      const listed = await weak.from('documents').select('id');
      expect(listed.data ?? []).toEqual([]);
      expect(errorMessage(listed)).toBe(CODE_FIRST);
      expect((await weak.from('organizations').select('id')).data ?? []).toEqual([]);
      const downloaded = await weak.storage.from('documents').download(document.file_path);
      expect(downloaded.data).toBeNull();
      const signed = await weak.storage.from('documents').createSignedUrl(document.file_path, 60);
      expect(signed.data).toBeNull();
      const stats = await weak.rpc('document_stats');
      expect(errorMessage(stats)).toBe(CODE_FIRST);
      const invited = await weak.rpc('invite_user', {
        email: `new-admin-${person.userId}@example.test`,
        role: 'admin',
        full_name: null,
      });
      expect(errorMessage(invited)).toBe(CODE_FIRST);
      const renamed = await weak
        .from('user_profiles')
        .update({ full_name: 'Someone else' })
        .eq('id', person.userId)
        .select('id');
      expect(renamed.data ?? []).toEqual([]);
      const { rows } = await server.db.serverWork().query(
        `select 1 from public.user_invitations where email = $1
         union all select 1 from public.user_profiles where id = $2 and full_name = 'Someone else'`,
        [`new-admin-${person.userId}@example.test`, person.userId],
      );
      expect(rows).toEqual([]);
      // The second step itself is open.
      expect((await weak.rpc('two_factor_status')).data).toEqual({
        required: false,
        enrolled: true,
        session_verified: false,
      });

      const verified = await weak.auth.mfa.challengeAndVerify({
        factorId: factor.factorId,
        code: codeFor(factor.secret, 1),
      });
      expect(verified.error).toBeNull();
      expect((await weak.from('documents').select('id')).data).toEqual([{ id: document.id }]);
      const file = await weak.storage.from('documents').download(document.file_path);
      expect(await file.data?.text()).toBe('The contents of Payroll 2026');
      expect((await weak.rpc('document_stats')).error).toBeNull();
    }
    const invited = await church.master.client.rpc('invite_user', {
      email: 'new-admin@example.test',
      role: 'admin',
      full_name: null,
    });
    expect(invited.error).toBeNull();

    // Someone without a factor is not concerned.
    const bystander = await signIn(plain);
    expect((await bystander.from('documents').select('id')).data).toEqual([{ id: document.id }]);
    expect(
      (await bystander.storage.from('documents').download(document.file_path)).error,
    ).toBeNull();
  });
});

// The refusal in the policies (private.require_second_factor) reads who must prove a second
// factor in its own statement, beside private.two_factor_required_for, which the auth service
// asks before a last factor is removed: both must say the same of everyone.
describe('who must prove a second factor', () => {
  it('is the same for the policies’ refusal and for the auth service', async () => {
    const strict = await createOrganisation(server, 'Agreeing Church');
    const relaxed = await createOrganisation(server, 'Relaxed Church');
    const people = {
      'master admin, required': strict.master,
      'admin, required': await addMember(server, strict, 'admin', 'agree-admin'),
      'deactivated admin, required': await addMember(server, strict, 'admin', 'agree-gone'),
      'member, required': await addMember(server, strict, 'user', 'agree-member'),
      'master admin, not required': relaxed.master,
      'admin, not required': await addMember(server, relaxed, 'admin', 'relaxed-admin'),
    };
    await server.db
      .serverWork()
      .query('update public.organizations set require_two_factor_for_admins = true where id = $1', [
        strict.id,
      ]);
    await server.db
      .serverWork()
      .query('update public.user_profiles set is_active = false where id = $1', [
        people['deactivated admin, required'].userId,
      ]);
    const asked: Record<string, { authService: boolean; refusal: boolean }> = {};
    for (const [who, person] of Object.entries(people)) {
      const { rows } = await server.db
        .serverWork()
        .query<{ required: boolean }>(
          'select private.two_factor_required_for($1::uuid) as required',
          [person.userId],
        );
      // As the database's owner, with no claims: a session without a second factor.
      const refused = await server.db
        .serverWork()
        .query('select private.require_second_factor($1::uuid)', [person.userId])
        .then(
          () => false,
          (error: Error) => error.message.startsWith('Two-factor sign-in is required'),
        );
      asked[who] = { authService: rows[0]!.required, refusal: refused };
    }
    expect(asked).toEqual({
      'master admin, required': { authService: true, refusal: true },
      'admin, required': { authService: true, refusal: true },
      'deactivated admin, required': { authService: false, refusal: false },
      'member, required': { authService: false, refusal: false },
      'master admin, not required': { authService: false, refusal: false },
      'admin, not required': { authService: false, refusal: false },
    });
  });
});
