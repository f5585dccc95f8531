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
import { restoreProfile, type Person } from './world.ts';

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

/**
 * Rows read or written on the server's own connection, past row-level security as the service
 * role's REST requests were: a case's fixtures and the checks of its effect, which are not what
 * the case tests (its own request is), without an HTTP, REST and supabase-js round trip each
 * (about 400 of the `tables` part's requests, as `table-cases.ts` did for its own).
 */
async function sql<T>(server: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  return (await server.db.serverWork().query<T & Record<string, unknown>>(text, params)).rows;
}

/** A profile row; the cases compare any of its columns. */
type Profile = Record<string, unknown> & { full_name: string | null; email_reminders: boolean };

/**
 * The profile as the database holds it, turned into JSON by `row_to_json` as the REST API turns
 * rows into JSON (so the timestamps compared with `sameValue` are written as the service role
 * read them).
 */
async function storedProfile(server: TestServer, userId: string): Promise<Profile> {
  const [row] = await sql<{ row: string }>(
    server,
    'select row_to_json(p)::text as row from public.user_profiles p where p.id = $1',
    [userId],
  );
  if (!row) throw new Error(`profile ${userId}: not found`);
  return JSON.parse(row.row) as Profile;
}

/** Puts back a column an allowed case changed (one of the two the API lets a member write). */
async function restoreOwn(
  server: TestServer,
  userId: string,
  column: 'full_name' | 'email_reminders',
  value: unknown,
) {
  await sql(server, `update public.user_profiles set ${column} = $2 where id = $1`, [
    userId,
    value,
  ]);
}

async function ownConnection(server: TestServer, person: Person, organizationId: string) {
  const [row] = await sql<{ id: string }>(
    server,
    `insert into public.oauth_connections (provider_id, user_id, organization_id, scopes)
     values ($1, $2, $3, '{read}') returning id`,
    [`own-${randomBytes(3).toString('hex')}`, person.userId, organizationId],
  );
  if (!row) throw new Error('own connection: no row inserted');
  await sql(
    server,
    `insert into public.oauth_connection_tokens (connection_id, access_token, refresh_token)
     values ($1, 'enc:own-access', 'enc:own-refresh')`,
    [row.id],
  );
  return row.id;
}

/** The person's calendar address, made as a fixture (replacing an earlier one). */
async function ownFeed(
  server: TestServer,
  person: Person,
  organizationId: string,
  scope: 'all' | 'mine' = 'all',
): Promise<string> {
  await sql(server, 'delete from public.calendar_feeds where user_id = $1', [person.userId]);
  const [row] = await sql<{ id: string }>(
    server,
    `insert into public.calendar_feeds (user_id, organization_id, scope)
     values ($1, $2, $3) returning id`,
    [person.userId, organizationId, scope],
  );
  if (!row) throw new Error('own feed: no row inserted');
  return row.id;
}

/** The connection's row as JSON (`row_to_json`, as REST gives it), or undefined when gone. */
async function connectionRow(server: TestServer, id: string) {
  const [row] = await sql<{ row: string }>(
    server,
    'select row_to_json(c)::text as row from public.oauth_connections c where c.id = $1',
    [id],
  );
  return row ? (JSON.parse(row.row) as Record<string, unknown>) : undefined;
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
        const before = await storedProfile(server, person.userId);
        const name = `Renamed ${randomBytes(3).toString('hex')}`;
        const { error } = await actor.client
          .from('user_profiles')
          .update({ full_name: name })
          .eq('id', person.userId);
        const after = await storedProfile(server, person.userId);
        await restoreOwn(server, person.userId, 'full_name', before.full_name);
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
        const after = await storedProfile(server, person.userId);
        await restoreOwn(server, person.userId, 'email_reminders', true);
        return judgeWrite(error, after.email_reminders === false);
      },
    });
    cases.push({
      group,
      name: `${actor.label} gives themselves a name with spaces around it`,
      expected: 'denied',
      run: async () => {
        const before = await storedProfile(server, person.userId);
        const name = ` Padded ${randomBytes(3).toString('hex')} `;
        const { error } = await actor.client
          .from('user_profiles')
          .update({ full_name: name })
          .eq('id', person.userId);
        const after = await storedProfile(server, person.userId);
        const changed = after.full_name === name;
        if (changed) await restoreOwn(server, person.userId, 'full_name', before.full_name);
        return judgeWrite(error, changed);
      },
    });
    for (const change of FORBIDDEN_PROFILE_CHANGES) {
      cases.push({
        group,
        name: `${actor.label} sets their own ${change.column}`,
        expected: 'denied',
        run: async () => {
          const before = await storedProfile(server, person.userId);
          const value = change.value(actor, world);
          const { error } = await actor.client
            .from('user_profiles')
            .update({ [change.column]: value })
            .eq('id', person.userId);
          const after = await storedProfile(server, person.userId);
          const changed = sameValue(after[change.column], value);
          // Only when the case has failed: the column put back as the service role, as before.
          if (changed) {
            await restoreProfile(server, person.userId, {
              [change.column]: before[change.column],
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
          (await sql(server, 'select 1 from public.user_profiles where id = $1', [person.userId]))
            .length === 0;
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
        const rows = await sql(server, 'select 1 from public.user_profiles where id = $1', [
          person.userId,
        ]);
        return judgeWrite(error, rows.length > 1);
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
        const [row] = await sql<{ scope: string }>(
          server,
          'select scope from public.calendar_feeds where id = $1',
          [id],
        );
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
