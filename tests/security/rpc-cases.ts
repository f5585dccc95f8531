/**
 * Every rpc function × every actor (× both organisations where the function takes another
 * person's row): the exact error text of the specification, or success with its effect checked
 * and then undone with the service role so that the next case starts from the same world.
 */
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import { standing, type Actor, type OrgKey, type OrgWorld, type World } from './actors.ts';
import type { Case, Outcome } from './cases.ts';
import { addMember, invite, profileOf, restoreProfile, uniqueEmail, unwrap } from './world.ts';

interface RpcResult {
  data: unknown;
  error: { message: string } | null;
  status: number;
}

/** `allowed` on success, `denied` when the role may not call the function, else the error text. */
function outcomeOf(result: RpcResult): Outcome {
  if (!result.error) return 'allowed';
  if (result.status === 401 || result.status === 403) return 'denied';
  return `error: ${result.error.message}`;
}

const isAdmin = (actor: Actor) => actor.kind === 'admin' || actor.kind === 'master_admin';

/**
 * The answer of a function that an admin (or master admin) uses on someone of organisation
 * `target`: the same checks, in the same order, as the functions make them.
 */
function teamAction(
  actor: Actor,
  target: OrgKey,
  allowed: (actor: Actor) => boolean,
  refusal: string,
  notFound: string,
): Outcome {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization') return 'error: No organization found';
  if (!allowed(actor)) return `error: ${refusal}`;
  if (standing(actor, target) === 'outsider') return `error: ${notFound}`;
  return 'allowed';
}

/** For functions that act on the caller's own organisation only. */
function ownOrganisationAction(
  actor: Actor,
  allowed: (actor: Actor) => boolean,
  refusal: string,
): Outcome {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization') return 'error: No organization found';
  return allowed(actor) ? 'allowed' : `error: ${refusal}`;
}

const memberOnly = (actor: Actor): Outcome =>
  actor.kind === 'anonymous'
    ? 'denied'
    : actor.kind === 'no_organization' || actor.kind === 'deactivated'
      ? 'error: No organization found'
      : 'allowed';

/**
 * Rows read or written on the server's own connection, past row-level security as the service
 * role's REST requests were: a case's fixtures and effects, without a request each.
 */
async function sql<T>(server: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  return (await server.db.serverWork().query<T & Record<string, unknown>>(text, params)).rows;
}

/** The organisation's documents in use (the counters leave the trash out). */
async function documentsOf(server: TestServer, organizationId: string) {
  return sql<{ category: string; tags: string[] }>(
    server,
    `select category, tags from public.documents
      where organization_id = $1 and deleted_at is null`,
    [organizationId],
  );
}

/** A connection of `userId` in the organisation, inserted as a fixture; returns its id. */
async function connectionOf(server: TestServer, provider: string, userId: string, orgId: string) {
  const [row] = await sql<{ id: string }>(
    server,
    `insert into public.oauth_connections (provider_id, user_id, organization_id)
     values ($1, $2, $3) returning id`,
    [provider, userId, orgId],
  );
  if (!row) throw new Error('connection: no row inserted');
  return row;
}

/** Whether the connection is still active. */
const activeOf = (server: TestServer, id: string) =>
  sql<{ is_active: boolean }>(
    server,
    'select is_active from public.oauth_connections where id = $1',
    [id],
  );

/** steward.toml's default `[storage] quota_per_organization`, which the matrix server keeps. */
const DEFAULT_QUOTA = 10 * 1024 ** 3;

/** The bytes of an organisation's files in every bucket, as the database holds them. */
async function storedBytes(server: TestServer, organizationId: string): Promise<number> {
  const { rows } = await server.db.serverWork().query<{ bytes: string }>(
    `select coalesce(sum((metadata ->> 'size')::bigint), 0) as bytes from storage.objects
      where (bucket_id = 'documents' and name like 'documents/' || $1 || '/%')
         or (bucket_id = 'branding' and name like $1 || '/%')`,
    [organizationId],
  );
  return Number(rows[0]!.bytes);
}

export function rpcCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const service = () => server.service();
  const orgOf = (actor: Actor): OrgWorld | null => (actor.org ? world.orgs[actor.org] : null);
  const validTokens: Partial<Record<OrgKey, Promise<string>>> = {};
  const validToken = (target: OrgKey) =>
    (validTokens[target] ??= invite(
      world.orgs[target].organisation.master,
      uniqueEmail('lookup'),
    ).then((i) => i.token));

  // Members whose second factor a master admin may remove (which also ends their sessions,
  // so not the bystanders other cases sign in as): one per organisation, made when first used.
  const twoFactorTargets: Partial<Record<OrgKey, Promise<string>>> = {};
  const twoFactorTarget = (target: OrgKey) =>
    (twoFactorTargets[target] ??= addMember(
      server,
      world.orgs[target].organisation,
      'user',
      'two-factor',
    ).then((person) => person.userId));

  for (const actor of world.actors) {
    const group = (fn: string) => `rpc ${fn}`;

    cases.push({
      group: group('two_factor_status'),
      name: `${actor.label} reads whether they must use two-factor sign-in`,
      expected: actor.kind === 'anonymous' ? 'denied' : 'allowed',
      run: async () => {
        const result = await actor.client.rpc('two_factor_status');
        const outcome = outcomeOf(result);
        if (outcome === 'allowed' && (result.data as { required?: unknown }).required !== false) {
          return 'error: nobody in the matrix world must use two-factor sign-in';
        }
        return outcome;
      },
    });

    for (const required of [false, true]) {
      cases.push({
        group: group('set_two_factor_requirement'),
        name: `${actor.label} sets two-factor sign-in required to ${required}`,
        expected: ((): Outcome => {
          const base = ownOrganisationAction(
            actor,
            (a) => a.kind === 'master_admin',
            'Only master admins can change the two-factor requirement',
          );
          // Nobody in the matrix world has a second factor: turning it on is refused.
          return base === 'allowed' && required
            ? 'error: Set up two-factor sign-in for yourself and sign in with it first'
            : base;
        })(),
        run: async () => {
          const outcome = outcomeOf(
            await actor.client.rpc('set_two_factor_requirement', { required }),
          );
          const { rows } = await server.db
            .serverWork()
            .query<{ on: number }>(
              'select count(*)::int as on from public.organizations where require_two_factor_for_admins',
            );
          if (rows[0]!.on !== 0) return 'error: an organisation now requires two-factor sign-in';
          return outcome;
        },
      });
    }

    cases.push({
      group: group('members_with_two_factor'),
      name: `${actor.label} lists the members with two-factor sign-in`,
      expected: ownOrganisationAction(
        actor,
        isAdmin,
        'Insufficient permissions to view two-factor sign-in',
      ),
      run: async () => outcomeOf(await actor.client.rpc('members_with_two_factor')),
    });

    cases.push({
      group: group('create_organization'),
      name: `${actor.label} creates an organisation`,
      expected:
        actor.kind === 'anonymous'
          ? 'denied'
          : actor.kind === 'no_organization'
            ? 'allowed'
            : 'error: User already belongs to an organization',
      run: async () => {
        const result = await actor.client.rpc('create_organization', { name: 'Matrix Fellowship' });
        const outcome = outcomeOf(result);
        if (outcome === 'allowed' && actor.person) {
          const created = result.data as { id: string };
          const profile = await profileOf(server, actor.person.userId);
          if (profile.organization_id !== created.id || profile.role !== 'master_admin') {
            return 'error: succeeded without joining the new organisation';
          }
          unwrap(await service().from('organizations').delete().eq('id', created.id), 'undo');
          await restoreProfile(server, actor.person.userId, { role: 'user' });
        }
        return outcome;
      },
    });

    cases.push({
      group: group('invite_user'),
      name: `${actor.label} invites someone to their organisation`,
      expected: ownOrganisationAction(actor, isAdmin, 'Insufficient permissions to invite users'),
      run: async () => {
        const email = uniqueEmail('matrix-invite');
        const result = await actor.client.rpc('invite_user', {
          email,
          role: 'user',
          full_name: null,
        });
        const outcome = outcomeOf(result);
        const rows = await sql<{ organization_id: string }>(
          server,
          'select organization_id from public.user_invitations where email = $1',
          [email],
        );
        const org = orgOf(actor);
        if (
          outcome === 'allowed' &&
          (rows.length !== 1 || rows[0]!.organization_id !== org?.organisation.id)
        ) {
          return 'error: no invitation in the own organisation';
        }
        if (outcome !== 'allowed' && rows.length > 0)
          return 'error: invitation created despite the refusal';
        return outcome;
      },
    });

    cases.push({
      group: group('get_invitation'),
      name: `${actor.label} looks up an unknown token`,
      expected: 'error: Invalid or expired invitation',
      run: async () =>
        outcomeOf(
          await actor.client.rpc('get_invitation', { token: randomBytes(32).toString('hex') }),
        ),
    });

    cases.push({
      group: group('document_stats'),
      name: `${actor.label} reads the document counters`,
      expected: memberOnly(actor),
      run: async () => {
        const result = await actor.client.rpc('document_stats');
        const outcome = outcomeOf(result);
        const org = orgOf(actor);
        if (outcome === 'allowed' && org) {
          const documents = await documentsOf(server, org.organisation.id);
          if ((result.data as { total: number }).total !== documents.length) {
            return 'error: counted documents outside the own organisation';
          }
        }
        return outcome;
      },
    });

    cases.push({
      group: group('count_documents_matching'),
      name: `${actor.label} counts related documents`,
      expected: memberOnly(actor),
      run: async () => {
        const result = await actor.client.rpc('count_documents_matching', { term: 'hr' });
        const outcome = outcomeOf(result);
        const org = orgOf(actor);
        if (outcome === 'allowed' && org) {
          const documents = await documentsOf(server, org.organisation.id);
          const matching = documents.filter(
            (d) =>
              d.category.toLowerCase().includes('hr') ||
              d.tags.some((t) => t.toLowerCase().includes('hr')),
          );
          if (result.data !== matching.length)
            return 'error: counted documents outside the own organisation';
        }
        return outcome;
      },
    });

    cases.push({
      group: group('organization_storage_usage'),
      name: `${actor.label} reads the organisation's storage usage`,
      expected: ownOrganisationAction(
        actor,
        isAdmin,
        'Insufficient permissions to view storage usage',
      ),
      run: async () => {
        const result = await actor.client.rpc('organization_storage_usage');
        const outcome = outcomeOf(result);
        const org = orgOf(actor);
        if (outcome === 'allowed' && org) {
          const usage = result.data as { used_bytes: number; quota_bytes: number };
          if (usage.used_bytes !== (await storedBytes(server, org.organisation.id))) {
            return 'error: counted files outside the own organisation';
          }
          if (usage.quota_bytes !== DEFAULT_QUOTA) return 'error: not the configured quota';
        }
        return outcome;
      },
    });

    cases.push({
      group: group('save_oauth_config'),
      name: `${actor.label} configures an OAuth provider`,
      expected: ownOrganisationAction(
        actor,
        (a) => a.kind === 'master_admin',
        'Only master admins can configure OAuth providers',
      ),
      run: async () => {
        const provider = `matrix-${randomBytes(3).toString('hex')}`;
        const result = await actor.client.rpc('save_oauth_config', {
          provider_id: provider,
          client_id: 'matrix-client',
          client_secret: 'matrix-secret',
          authorize_url: null,
          token_url: null,
        });
        const outcome = outcomeOf(result);
        const rows = await sql<{ organization_id: string }>(
          server,
          'select organization_id from public.oauth_configs where provider_id = $1',
          [provider],
        );
        if (outcome === 'allowed' && rows[0]?.organization_id !== orgOf(actor)?.organisation.id) {
          return 'error: configuration not stored for the own organisation';
        }
        if (outcome !== 'allowed' && rows.length > 0) return 'error: stored despite the refusal';
        return outcome;
      },
    });

    if (actor.person && actor.org) {
      const person = actor.person;
      const org = world.orgs[actor.org];
      cases.push({
        group: group('disconnect_oauth_connection'),
        name: `${actor.label} disconnects their own connection`,
        expected: actor.kind === 'deactivated' ? 'error: Connection not found' : 'allowed',
        run: async () => {
          const connection = await connectionOf(
            server,
            `own-${randomBytes(3).toString('hex')}`,
            person.userId,
            org.organisation.id,
          );
          const outcome = outcomeOf(
            await actor.client.rpc('disconnect_oauth_connection', { connection_id: connection.id }),
          );
          const row = await activeOf(server, connection.id);
          if ((outcome === 'allowed') === row[0]!.is_active)
            return 'error: effect does not match the answer';
          return outcome;
        },
      });
    }

    for (const target of ['A', 'B'] as const) {
      const org = world.orgs[target];
      const on = `${target}`;

      cases.push({
        group: group('update_user_role'),
        name: `${actor.label} promotes a user of ${on}`,
        expected: teamAction(
          actor,
          target,
          (a) => a.kind === 'master_admin',
          'Only master admins can change user roles',
          'User not found',
        ),
        run: async () => {
          const outcome = outcomeOf(
            await actor.client.rpc('update_user_role', {
              user_id: org.bystander.userId,
              new_role: 'admin',
            }),
          );
          const promoted = (await profileOf(server, org.bystander.userId)).role === 'admin';
          if (promoted) await restoreProfile(server, org.bystander.userId, { role: 'user' });
          if (promoted !== (outcome === 'allowed'))
            return 'error: effect does not match the answer';
          return outcome;
        },
      });

      for (const [fn, verb, person, becomes] of [
        ['deactivate_user', 'deactivate', org.bystander, false],
        ['reactivate_user', 'reactivate', org.deactivatedBystander, true],
      ] as const) {
        cases.push({
          group: group(fn),
          name: `${actor.label} ${verb}s a user of ${on}`,
          expected: teamAction(
            actor,
            target,
            isAdmin,
            `Insufficient permissions to ${verb} users`,
            'User not found',
          ),
          run: async () => {
            const outcome = outcomeOf(await actor.client.rpc(fn, { user_id: person.userId }));
            const changed = (await profileOf(server, person.userId)).is_active === becomes;
            if (changed) await restoreProfile(server, person.userId, { is_active: !becomes });
            if (changed !== (outcome === 'allowed'))
              return 'error: effect does not match the answer';
            return outcome;
          },
        });
      }

      cases.push({
        group: group('remove_member_two_factor'),
        name: `${actor.label} removes the second factor of a user of ${on}`,
        expected: teamAction(
          actor,
          target,
          (a) => a.kind === 'master_admin',
          "Only master admins can remove a member's two-factor sign-in",
          'User not found',
        ),
        run: async () => {
          const userId = await twoFactorTarget(target);
          const removals = async () =>
            (
              await server.db.serverWork().query(
                `select 1 from public.activity_log
                  where kind = 'member.two_factor_removed' and details ->> 'member_id' = $1`,
                [userId],
              )
            ).rows.length;
          const loggedBefore = await removals();
          await server.db.serverWork().query(
            `insert into auth.mfa_factors (id, user_id, factor_type, status, created_at,
                updated_at, secret)
              values (gen_random_uuid(), $1, 'totp', 'verified', now(), now(), 'v1:matrix')`,
            [userId],
          );
          const outcome = outcomeOf(
            await actor.client.rpc('remove_member_two_factor', { user_id: userId }),
          );
          const { rows } = await server.db
            .serverWork()
            .query('delete from auth.mfa_factors where user_id = $1 returning id', [userId]);
          if ((rows.length === 0) !== (outcome === 'allowed'))
            return 'error: effect does not match the answer';
          // The history records a removal, and only one that happened (entries stay for ever).
          if ((await removals()) - loggedBefore !== (outcome === 'allowed' ? 1 : 0))
            return 'error: the history does not match the answer';
          return outcome;
        },
      });

      cases.push({
        group: group('send_password_reset'),
        name: `${actor.label} sends a password reset link to a user of ${on}`,
        expected: teamAction(
          actor,
          target,
          isAdmin,
          'Insufficient permissions to send password reset links',
          'User not found',
        ),
        run: async () => {
          const outcome = outcomeOf(
            await actor.client.rpc('send_password_reset', { user_id: org.bystander.userId }),
          );
          // The effect: a job that writes and sends the link to the member's own address.
          const { rows } = await server.db.serverWork().query<{ id: string }>(
            `delete from private.jobs where kind = 'auth.mail' and payload ->> 'user_id' = $1
             returning id`,
            [org.bystander.userId],
          );
          if ((rows.length === 1) !== (outcome === 'allowed'))
            return 'error: effect does not match the answer';
          return outcome;
        },
      });

      cases.push({
        group: group('cancel_invitation'),
        name: `${actor.label} cancels an invitation of ${on}`,
        expected: teamAction(
          actor,
          target,
          isAdmin,
          'Insufficient permissions to cancel invitations',
          'Invitation not found',
        ),
        run: async () => {
          const { id } = await invite(org.organisation.master, uniqueEmail('matrix-cancel'));
          const outcome = outcomeOf(
            await actor.client.rpc('cancel_invitation', { invitation_id: id }),
          );
          const rows = await sql<{ id: string }>(
            server,
            'select id from public.user_invitations where id = $1',
            [id],
          );
          if ((rows.length === 0) !== (outcome === 'allowed'))
            return 'error: effect does not match the answer';
          return outcome;
        },
      });

      cases.push({
        group: group('get_invitation'),
        name: `${actor.label} looks up a valid invitation of ${on}`,
        expected: 'allowed',
        run: async () => {
          const result = await actor.client.rpc('get_invitation', {
            token: await validToken(target),
          });
          const outcome = outcomeOf(result);
          if (
            outcome === 'allowed' &&
            (result.data as { organization_name: string }).organization_name !==
              org.organisation.name
          ) {
            return 'error: wrong invitation';
          }
          return outcome;
        },
      });

      cases.push({
        group: group('accept_invitation'),
        name:
          actor.org === target
            ? `${actor.label} accepts an invitation of ${on} meant for someone else`
            : `${actor.label} accepts an invitation of ${on} addressed to them`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : actor.org === target
              ? 'error: This invitation was sent to a different email address'
              : actor.org
                ? 'error: User already belongs to an organization'
                : 'allowed',
        run: async () => {
          const email =
            actor.person && actor.org !== target ? actor.person.email : uniqueEmail('someone');
          const { id, token } = await invite(org.organisation.master, email);
          const outcome = outcomeOf(await actor.client.rpc('accept_invitation', { token }));
          const [invitation] = await sql<{ accepted: boolean }>(
            server,
            'select accepted_at is not null as accepted from public.user_invitations where id = $1',
            [id],
          );
          const accepted = invitation!.accepted;
          if (outcome === 'allowed' && actor.person) {
            const profile = await profileOf(server, actor.person.userId);
            if (profile.organization_id !== org.organisation.id)
              return 'error: accepted without joining';
            await restoreProfile(server, actor.person.userId, {
              organization_id: null,
              role: 'user',
              full_name: null,
              invited_by: null,
              invited_at: null,
            });
          }
          if (accepted !== (outcome === 'allowed'))
            return 'error: effect does not match the answer';
          return outcome;
        },
      });

      cases.push({
        group: group('disconnect_oauth_connection'),
        name: `${actor.label} disconnects someone else's connection in ${on}`,
        expected: actor.kind === 'anonymous' ? 'denied' : 'error: Connection not found',
        run: async () => {
          const connection = await connectionOf(
            server,
            `p-${randomBytes(3).toString('hex')}`,
            org.bystander.userId,
            org.organisation.id,
          );
          const outcome = outcomeOf(
            await actor.client.rpc('disconnect_oauth_connection', { connection_id: connection.id }),
          );
          const row = await activeOf(server, connection.id);
          if (!row[0]!.is_active && outcome !== 'allowed')
            return 'error: disconnected despite the refusal';
          return outcome;
        },
      });
    }
  }
  return cases;
}
