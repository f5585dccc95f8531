/**
 * Issue 24's functions × every actor: the organisation's settings (name and time zone, the
 * departments' order, the first-run checklist), a second master admin, the checks before a
 * member's reset link (the rpc and the member-reset-link edge function that asks it), whether
 * e-mail is delivered, and recovery codes. Each case checks its
 * effect with the service role (or the database) and puts the world back.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import type { TestServer } from '../support/server.ts';
import { standing, type Actor, type OrgKey, type World } from './actors.ts';
import type { Case, Outcome } from './cases.ts';
import { addMember, restoreProfile, type Person } from './world.ts';

interface RpcResult {
  data: unknown;
  error: { message: string } | null;
  status: number;
}

function outcomeOf(result: RpcResult): Outcome {
  if (!result.error) return 'allowed';
  if (result.status === 401 || result.status === 403) return 'denied';
  return `error: ${result.error.message}`;
}

type Minimum = 'user' | 'admin' | 'master_admin';
const RANK: Record<string, number> = { user: 1, admin: 2, master_admin: 3 };

/** A function on the caller's own organisation, for callers of at least `minimum`. */
function ownOrganisation(actor: Actor, minimum: Minimum, refusal: string): Outcome {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization' || actor.kind === 'deactivated') {
    return 'error: No organization found';
  }
  return RANK[actor.kind]! >= RANK[minimum]! ? 'allowed' : `error: ${refusal}`;
}

/** A function on a member of organisation `target`: the same checks, in the same order. */
function onMember(actor: Actor, target: OrgKey, minimum: Minimum, refusal: string): Outcome {
  const own = ownOrganisation(actor, minimum, refusal);
  if (own !== 'allowed') return own;
  return standing(actor, target) === 'outsider' ? 'error: User not found' : 'allowed';
}

const signedIn = (actor: Actor, then: Outcome): Outcome =>
  actor.kind === 'anonymous' ? 'denied' : then;

export function settingsCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const db = server.db;
  // An admin per organisation whom a master admin may promote, made when first used.
  const promotables: Partial<Record<OrgKey, Promise<Person>>> = {};
  const promotable = (key: OrgKey) =>
    (promotables[key] ??= addMember(server, world.orgs[key].organisation, 'admin', 'promotable'));

  for (const actor of world.actors) {
    const own = actor.org ? world.orgs[actor.org] : null;

    cases.push({
      group: 'rpc update_organization',
      name: `${actor.label} renames the organisation and sets its time zone`,
      expected: ownOrganisation(actor, 'admin', 'Only admins can change the organization settings'),
      run: async () => {
        const organisation = own?.organisation ?? world.orgs.A.organisation;
        const before = await db
          .serverWork()
          .query<{ time_zone: string }>(
            `select time_zone from public.reminder_settings where organization_id = $1`,
            [organisation.id],
          );
        const outcome = outcomeOf(
          await actor.client.rpc('update_organization', {
            name: ` ${organisation.name} `,
            time_zone: 'Pacific/Chatham',
          }),
        );
        const { rows } = await db.serverWork().query<{ name: string; time_zone: string | null }>(
          `select o.name, s.time_zone from public.organizations o
           left join public.reminder_settings s on s.organization_id = o.id where o.id = $1`,
          [organisation.id],
        );
        const changed = rows[0]!.time_zone === 'Pacific/Chatham';
        if (rows[0]!.name !== organisation.name) return 'error: the name was not kept trimmed';
        await db
          .serverWork()
          .query(`delete from public.reminder_settings where organization_id = $1`, [
            organisation.id,
          ]);
        if (before.rows[0]) {
          await db
            .serverWork()
            .query(
              `insert into public.reminder_settings (organization_id, time_zone) values ($1, $2)`,
              [organisation.id, before.rows[0].time_zone],
            );
        }
        if (changed !== (outcome === 'allowed')) return 'error: effect does not match the answer';
        return outcome;
      },
    });

    cases.push({
      group: 'rpc reorder_departments',
      name: `${actor.label} reverses the order of the departments`,
      expected: ownOrganisation(actor, 'admin', 'Only admins can change the departments'),
      run: async () => {
        const organisation = own?.organisation ?? world.orgs.A.organisation;
        const order = async () =>
          (
            await db.serverWork().query<{ id: string }>(
              `select id from public.departments where organization_id = $1
               order by position, id`,
              [organisation.id],
            )
          ).rows.map((row) => row.id);
        const before = await order();
        const outcome = outcomeOf(
          await actor.client.rpc('reorder_departments', {
            department_ids: [...before].reverse(),
          }),
        );
        const after = await order();
        const changed = after.join() !== before.join();
        await db.serverWork().query(
          `update public.departments d set position = o.n
           from unnest($1::uuid[]) with ordinality as o (id, n) where d.id = o.id`,
          [before],
        );
        if (changed !== (outcome === 'allowed')) return 'error: effect does not match the answer';
        return outcome;
      },
    });

    cases.push({
      group: 'rpc onboarding_status',
      name: `${actor.label} reads the first-run checklist`,
      expected: ownOrganisation(actor, 'admin', 'Only admins can see the first-run checklist'),
      run: async () => {
        const result = await actor.client.rpc('onboarding_status');
        const outcome = outcomeOf(result);
        if (outcome === 'allowed' && (result.data as { dismissed?: unknown }).dismissed !== false) {
          return 'error: the checklist of the matrix world is not dismissed';
        }
        return outcome;
      },
    });

    cases.push({
      group: 'rpc update_onboarding',
      name: `${actor.label} dismisses the first-run checklist`,
      expected: ownOrganisation(actor, 'admin', 'Only admins can change the first-run checklist'),
      run: async () => {
        const outcome = outcomeOf(
          await actor.client.rpc('update_onboarding', { step: 'dismissed' }),
        );
        const { rows } = await db
          .serverWork()
          .query(`delete from private.organization_onboarding returning organization_id`);
        if ((rows.length === 1) !== (outcome === 'allowed')) {
          return 'error: effect does not match the answer';
        }
        return outcome;
      },
    });

    cases.push({
      group: 'rpc mail_delivery',
      name: `${actor.label} asks whether e-mail is delivered`,
      // Anyone: the forgot-password page asks before anyone is signed in.
      expected: 'allowed',
      run: async () => {
        const result = await actor.client.rpc('mail_delivery');
        const outcome = outcomeOf(result);
        if (outcome === 'allowed' && result.data !== 'outbox') {
          return `error: the matrix server has no SMTP, got ${String(result.data)}`;
        }
        return outcome;
      },
    });

    cases.push({
      group: 'rpc generate_recovery_codes',
      name: `${actor.label} makes recovery codes without a second factor`,
      expected: signedIn(actor, 'error: Set up two-factor sign-in first'),
      run: async () => {
        const outcome = outcomeOf(await actor.client.rpc('generate_recovery_codes'));
        const { rows } = await db.serverWork().query(`select 1 from private.recovery_codes`);
        return rows.length > 0 ? 'error: codes were made' : outcome;
      },
    });

    cases.push({
      group: 'rpc recovery_codes_left',
      name: `${actor.label} counts their recovery codes`,
      expected: signedIn(actor, 'allowed'),
      run: async () => {
        const result = await actor.client.rpc('recovery_codes_left');
        const outcome = outcomeOf(result);
        return outcome === 'allowed' && result.data !== 0 ? 'error: codes counted' : outcome;
      },
    });

    cases.push({
      group: 'rpc redeem_recovery_code',
      name: `${actor.label} gives a recovery code they do not have`,
      expected: signedIn(actor, 'error: This recovery code is not valid'),
      run: async () => {
        const result = await actor.client.rpc('redeem_recovery_code', { code: '0123-4567-89ab' });
        const outcome = outcomeOf(result);
        // A wrong code is answered -1 (the failure it records must stay: no exception).
        const { rows } = await db
          .serverWork()
          .query(`delete from private.recovery_code_failures returning 1`);
        if (outcome !== 'allowed') return rows.length === 0 ? outcome : 'error: failure recorded';
        if (result.data !== -1 || rows.length !== 1) return 'error: the code was taken';
        return 'error: This recovery code is not valid';
      },
    });

    for (const target of ['A', 'B'] as const) {
      const org = world.orgs[target];
      const on = `organisation ${target}`;

      cases.push({
        group: 'function member-reset-link',
        name: `${actor.label} asks the edge function for a reset link of a user of ${on}`,
        // The function asks authorize_password_reset_link as the caller; anonymous callers are
        // turned away by the function itself.
        expected: onMember(actor, target, 'admin', 'Insufficient permissions to make reset links'),
        run: async () => {
          const tokens = async () =>
            (
              await db.serverWork().query(
                `select 1 from auth.one_time_tokens t join auth.users u on u.id = t.user_id
                  where u.id = $1 and t.token_type = 'recovery_token'`,
                [org.bystander.userId],
              )
            ).rows.length;
          // Each case starts with no link for the member, so its own effect is what is seen.
          await db
            .serverWork()
            .query(
              `delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'`,
              [org.bystander.userId],
            );
          const { data, error } = await actor.client.functions.invoke<{ link: string }>(
            'member-reset-link',
            { body: { userId: org.bystander.userId } },
          );
          let outcome: Outcome = 'allowed';
          if (error) {
            if (!(error instanceof FunctionsHttpError)) throw error;
            const response = error.context as Response;
            outcome =
              response.status === 401
                ? 'denied'
                : `error: ${((await response.json()) as { error?: string }).error}`;
          }
          // The effect: a recovery token for the member, only when the link was given.
          const made = (await tokens()) > 0;
          if (outcome === 'allowed' && (!made || !data?.link.includes('token_hash='))) {
            return 'error: no link was made';
          }
          if (outcome !== 'allowed' && made) return 'error: a link was made';
          return outcome;
        },
      });

      cases.push({
        group: 'rpc make_master_admin',
        name: `${actor.label} makes an admin of ${on} a master admin`,
        expected: onMember(
          actor,
          target,
          'master_admin',
          'Only master admins can make a master admin',
        ),
        run: async () => {
          const person = await promotable(target);
          const outcome = outcomeOf(
            await actor.client.rpc('make_master_admin', { user_id: person.userId }),
          );
          const { rows } = await db
            .serverWork()
            .query<{ role: string }>(`select role from public.user_profiles where id = $1`, [
              person.userId,
            ]);
          const promoted = rows[0]!.role === 'master_admin';
          await restoreProfile(server, person.userId, { role: 'admin' });
          if (promoted !== (outcome === 'allowed'))
            return 'error: effect does not match the answer';
          return outcome;
        },
      });

      cases.push({
        group: 'rpc authorize_password_reset_link',
        name: `${actor.label} asks for a reset link of a user of ${on}`,
        expected: onMember(actor, target, 'admin', 'Insufficient permissions to make reset links'),
        run: async () => {
          const entries = async () =>
            (
              await db.serverWork().query(
                `select 1 from public.activity_log where kind = 'member.reset_link_made'
                   and details ->> 'member_id' = $1`,
                [org.bystander.userId],
              )
            ).rows.length;
          const before = await entries();
          const result = await actor.client.rpc('authorize_password_reset_link', {
            user_id: org.bystander.userId,
          });
          const outcome = outcomeOf(result);
          // The effect: an entry in the history (which keeps it: it is append-only).
          if ((await entries()) - before !== (outcome === 'allowed' ? 1 : 0)) {
            return 'error: effect does not match the answer';
          }
          // GoTrue keeps addresses in lower case.
          const answered = String(result.data);
          return outcome === 'allowed' && answered !== org.bystander.email.toLowerCase()
            ? 'error: another address was answered'
            : outcome;
        },
      });
    }

    if (actor.kind === 'admin' && actor.org) {
      const org = world.orgs[actor.org];
      cases.push({
        group: 'rpc authorize_password_reset_link',
        name: `${actor.label} asks for a reset link of their master admin`,
        expected: 'error: Only a master admin can make a reset link for an admin',
        run: async () =>
          outcomeOf(
            await actor.client.rpc('authorize_password_reset_link', {
              user_id: org.organisation.master.userId,
            }),
          ),
      });
    }
    if (actor.kind === 'master_admin' && actor.org) {
      const org = world.orgs[actor.org];
      cases.push({
        group: 'the last master admin',
        name: `${org.key}'s only master admin cannot be made a user, even by the service role`,
        expected: 'error: An organization must keep a master admin who can sign in',
        run: async () => {
          const result = await server
            .service()
            .from('user_profiles')
            .update({ role: 'user' })
            .eq('id', org.organisation.master.userId);
          const { rows } = await db
            .serverWork()
            .query<{ role: string }>(`select role from public.user_profiles where id = $1`, [
              org.organisation.master.userId,
            ]);
          if (rows[0]!.role !== 'master_admin') {
            await restoreProfile(server, org.organisation.master.userId, { role: 'master_admin' });
            return 'allowed';
          }
          return result.error ? `error: ${result.error.message}` : 'denied';
        },
      });
    }
  }
  return cases;
}
