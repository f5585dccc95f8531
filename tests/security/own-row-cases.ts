/**
 * What every signed-in actor may do to their own rows: read and rename their profile (while
 * active, to a name without spaces around it), never change their role, organisation,
 * activity, e-mail or sign-in record, never delete it; read their own connections (while an
 * active member), never write them or read their tokens.
 */
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import type { Actor, World } from './actors.ts';
import { allowedIf, judgeWrite, type Case, type Outcome } from './cases.ts';
import { profileOf, restoreProfile, unwrap, type Person } from './world.ts';

type ProfileChange = { column: string; value: (actor: Actor, world: World) => unknown };

/** Columns a user must not set on their own profile, with a tempting value for each. */
const FORBIDDEN_PROFILE_CHANGES: ProfileChange[] = [
  { column: 'role', value: (actor) => (actor.kind === 'master_admin' ? 'user' : 'master_admin') },
  {
    column: 'organization_id',
    value: (actor, world) => world.orgs[actor.org === 'A' ? 'B' : 'A'].organisation.id,
  },
  // Deactivated users try to reactivate themselves; active ones to deactivate themselves.
  { column: 'is_active', value: (actor) => actor.kind === 'deactivated' },
  { column: 'email', value: () => `taken-${randomBytes(3).toString('hex')}@example.test` },
  // Someone other than the actual inviter (A's members were invited by A's master admin).
  {
    column: 'invited_by',
    value: (actor, world) => world.orgs[actor.org === 'A' ? 'B' : 'A'].organisation.master.userId,
  },
  { column: 'last_login', value: () => '2000-01-01T00:00:00+00:00' },
];

const sameValue = (stored: unknown, wanted: unknown) =>
  stored === wanted ||
  (typeof stored === 'string' &&
    typeof wanted === 'string' &&
    !Number.isNaN(Date.parse(stored)) &&
    Date.parse(stored) === Date.parse(wanted) &&
    /\d{4}-\d\d-\d\d/.test(wanted));

async function ownConnection(server: TestServer, person: Person, organizationId: string) {
  const row = unwrap(
    await server
      .service()
      .from('oauth_connections')
      .insert({
        provider_id: `own-${randomBytes(3).toString('hex')}`,
        user_id: person.userId,
        organization_id: organizationId,
        scopes: ['read'],
      })
      .select('id')
      .single(),
    'own connection',
  ) as { id: string };
  unwrap(
    await server.service().from('oauth_connection_tokens').insert({
      connection_id: row.id,
      access_token: 'enc:own-access',
      refresh_token: 'enc:own-refresh',
    }),
    'own tokens',
  );
  return row.id;
}

/** The person's calendar address, made with the service role (replacing an earlier one). */
async function ownFeed(
  server: TestServer,
  person: Person,
  organizationId: string,
  scope: 'all' | 'mine' = 'all',
): Promise<string> {
  unwrap(
    await server.service().from('calendar_feeds').delete().eq('user_id', person.userId),
    'clear own feed',
  );
  const row = unwrap(
    await server
      .service()
      .from('calendar_feeds')
      .insert({ user_id: person.userId, organization_id: organizationId, scope })
      .select('id')
      .single(),
    'own feed',
  ) as { id: string };
  return row.id;
}

async function connectionRow(server: TestServer, id: string) {
  return (await server.service().from('oauth_connections').select('*').eq('id', id)).data?.[0] as
    Record<string, unknown> | undefined;
}

export function ownRowCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  for (const actor of world.actors) {
    const person = actor.person;
    if (!person) continue;
    const active = actor.kind !== 'deactivated';
    const group = 'own rows';

    cases.push({
      group,
      name: `${actor.label} reads their own profile`,
      expected: 'allowed',
      run: async () => {
        const { data, error } = await actor.client
          .from('user_profiles')
          .select('*')
          .eq('id', person.userId);
        return allowedIf(!error && data.length === 1);
      },
    });
    cases.push({
      group,
      name: `${actor.label} renames themselves`,
      expected: allowedIf(active),
      run: async () => {
        const before = await profileOf(server, person.userId);
        const name = `Renamed ${randomBytes(3).toString('hex')}`;
        const { error } = await actor.client
          .from('user_profiles')
          .update({ full_name: name })
          .eq('id', person.userId);
        const after = await profileOf(server, person.userId);
        await restoreProfile(server, person.userId, { full_name: before.full_name });
        return judgeWrite(error, after.full_name === name);
      },
    });
    cases.push({
      group,
      name: `${actor.label} turns their own reminder e-mails off`,
      expected: allowedIf(active),
      run: async () => {
        const { error } = await actor.client
          .from('user_profiles')
          .update({ email_reminders: false })
          .eq('id', person.userId);
        const after = (await profileOf(server, person.userId)) as unknown as {
          email_reminders: boolean;
        };
        await restoreProfile(server, person.userId, { email_reminders: true });
        return judgeWrite(error, after.email_reminders === false);
      },
    });
    cases.push({
      group,
      name: `${actor.label} gives themselves a name with spaces around it`,
      expected: 'denied',
      run: async () => {
        const before = await profileOf(server, person.userId);
        const name = ` Padded ${randomBytes(3).toString('hex')} `;
        const { error } = await actor.client
          .from('user_profiles')
          .update({ full_name: name })
          .eq('id', person.userId);
        const after = await profileOf(server, person.userId);
        const changed = after.full_name === name;
        if (changed) await restoreProfile(server, person.userId, { full_name: before.full_name });
        return judgeWrite(error, changed);
      },
    });
    for (const change of FORBIDDEN_PROFILE_CHANGES) {
      cases.push({
        group,
        name: `${actor.label} sets their own ${change.column}`,
        expected: 'denied',
        run: async () => {
          const before = await profileOf(server, person.userId);
          const value = change.value(actor, world);
          const { error } = await actor.client
            .from('user_profiles')
            .update({ [change.column]: value })
            .eq('id', person.userId);
          const after = (await profileOf(server, person.userId)) as unknown as Record<
            string,
            unknown
          >;
          const changed = sameValue(after[change.column], value);
          if (changed) {
            await restoreProfile(server, person.userId, {
              [change.column]: (before as unknown as Record<string, unknown>)[change.column],
            });
          }
          return judgeWrite(error, changed);
        },
      });
    }
    cases.push({
      group,
      name: `${actor.label} deletes their own profile`,
      expected: 'denied',
      run: async () => {
        const { error } = await actor.client.from('user_profiles').delete().eq('id', person.userId);
        const gone =
          (await server.service().from('user_profiles').select('id').eq('id', person.userId)).data
            ?.length === 0;
        return judgeWrite(error, gone);
      },
    });
    cases.push({
      group,
      name: `${actor.label} inserts a second profile for themselves`,
      expected: 'denied',
      run: async () => {
        const { error } = await actor.client
          .from('user_profiles')
          .insert({ id: person.userId, email: person.email, role: 'user', is_active: true });
        const rows = (
          await server.service().from('user_profiles').select('id').eq('id', person.userId)
        ).data;
        return judgeWrite(error, (rows?.length ?? 0) > 1);
      },
    });

    if (!actor.org) continue;
    const organizationId = world.orgs[actor.org].organisation.id;
    cases.push({
      group,
      name: `${actor.label} reads their own connection`,
      expected: allowedIf(active),
      run: async () => {
        const id = await ownConnection(server, person, organizationId);
        const { data, error } = await actor.client
          .from('oauth_connections')
          .select('*')
          .eq('id', id);
        return allowedIf(!error && data.length === 1);
      },
    });
    cases.push({
      group,
      name: `${actor.label} edits their own connection directly`,
      expected: 'denied',
      run: async () => {
        const id = await ownConnection(server, person, organizationId);
        const { error } = await actor.client
          .from('oauth_connections')
          .update({ scopes: ['admin'], expires_at: '2100-01-01T00:00:00Z' })
          .eq('id', id);
        const row = await connectionRow(server, id);
        return judgeWrite(error, JSON.stringify(row?.scopes) === '["admin"]');
      },
    });
    cases.push({
      group,
      name: `${actor.label} deletes their own connection directly`,
      expected: 'denied',
      run: async () => {
        const id = await ownConnection(server, person, organizationId);
        const { error } = await actor.client.from('oauth_connections').delete().eq('id', id);
        return judgeWrite(error, (await connectionRow(server, id)) === undefined);
      },
    });
    cases.push({
      group,
      name: `${actor.label} reads their own calendar address`,
      expected: allowedIf(active),
      run: async () => {
        const id = await ownFeed(server, person, organizationId);
        const { data, error } = await actor.client.from('calendar_feeds').select('*').eq('id', id);
        return allowedIf(!error && data.length === 1);
      },
    });
    cases.push({
      group,
      name: `${actor.label} widens their own calendar address directly`,
      expected: 'denied',
      run: async () => {
        const id = await ownFeed(server, person, organizationId, 'mine');
        const { error } = await actor.client
          .from('calendar_feeds')
          .update({ scope: 'all' })
          .eq('id', id);
        const row = (await server.service().from('calendar_feeds').select('scope').eq('id', id))
          .data?.[0] as { scope: string } | undefined;
        return judgeWrite(error, row?.scope === 'all');
      },
    });
    cases.push({
      group,
      name: `${actor.label} reads the tokens of their own connection`,
      expected: 'denied',
      run: async (): Promise<Outcome> => {
        const id = await ownConnection(server, person, organizationId);
        const { data, error } = await actor.client
          .from('oauth_connection_tokens')
          .select('*')
          .eq('connection_id', id);
        return allowedIf(!error && (data?.length ?? 0) > 0);
      },
    });
  }
  return cases;
}
