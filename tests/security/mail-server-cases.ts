/**
 * An organisation's own sender (issue 24, item 3) × every actor: saving it through the
 * `organization-mail-server` edge function, reading it (never its password), removing it,
 * storing it directly (the service role's alone), and the test e-mail. Each case checks its
 * effect in the database and puts the world back.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import type { TestServer } from '../support/server.ts';
import { standing, type Actor, type OrgKey, type World } from './actors.ts';
import { admits, allowedIf, type Case, type Outcome } from './cases.ts';

const REFUSAL = "Only admins can set up the organization's e-mail";

/** What the rpc functions of this file answer an actor acting on their own organisation. */
function asAdmin(actor: Actor): Outcome {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization' || actor.kind === 'deactivated') {
    return 'error: No organization found';
  }
  return actor.kind === 'admin' || actor.kind === 'master_admin' ? 'allowed' : `error: ${REFUSAL}`;
}

function outcomeOf(result: { error: { message: string } | null; status: number }): Outcome {
  if (!result.error) return 'allowed';
  if (result.status === 401 || result.status === 403) return 'denied';
  return `error: ${result.error.message}`;
}

export function mailServerCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const db = server.db;

  // A server for organisation `key`, stored as the edge function would (TEST-NET-1: nothing is
  // ever reached there; the delivery job refuses the reserved address).
  const storeFor = (key: OrgKey) =>
    db.serverWork().query(
      `insert into public.organization_mail_servers
         (organization_id, host, port, username, password_ciphertext, from_address)
       values ($1, '192.0.2.1', 587, 'office', 'v1.sealed.password', 'office@example.org')
       on conflict (organization_id) do nothing`,
      [world.orgs[key].organisation.id],
    );
  const removeFor = (key: OrgKey) =>
    db
      .serverWork()
      .query(`delete from public.organization_mail_servers where organization_id = $1`, [
        world.orgs[key].organisation.id,
      ]);
  const storedFor = async (key: OrgKey) =>
    (
      await db
        .serverWork()
        .query(`select 1 from public.organization_mail_servers where organization_id = $1`, [
          world.orgs[key].organisation.id,
        ])
    ).rows.length > 0;

  for (const actor of world.actors) {
    const own = actor.org;

    cases.push({
      group: 'function organization-mail-server',
      name: `${actor.label} saves the organisation's mail server`,
      // The function asks authorize_organization_mail_server as the caller; anonymous callers
      // are turned away by the function itself.
      expected: asAdmin(actor),
      run: async () => {
        if (own) await removeFor(own);
        const { data, error } = await actor.client.functions.invoke('organization-mail-server', {
          body: {
            host: 'smtp.example.org',
            port: 587,
            username: 'office',
            password: 'secret password',
            fromAddress: 'office@example.org',
          },
        });
        let outcome: Outcome = 'allowed';
        if (error) {
          if (!(error instanceof FunctionsHttpError)) throw error;
          const response = error.context as Response;
          outcome =
            response.status === 401
              ? 'denied'
              : `error: ${((await response.json()) as { error?: string }).error}`;
        } else if (JSON.stringify(data).includes('secret password')) {
          return 'error: the password came back';
        }
        const stored = own ? await storedFor(own) : false;
        if (own) await removeFor(own);
        if (stored !== (outcome === 'allowed')) return 'error: effect does not match the answer';
        return outcome;
      },
    });

    cases.push({
      group: 'rpc send_test_email',
      name: `${actor.label} sends a test e-mail through the organisation's server`,
      expected: asAdmin(actor),
      run: async () => {
        if (own) await storeFor(own);
        const result = await actor.client.rpc('send_test_email');
        const { rows } = await db.serverWork().query<{ id: string }>(
          `delete from public.outbox_messages where kind = 'test' and created_by = $1
           returning id`,
          [actor.person?.userId ?? null],
        );
        if (own) await removeFor(own);
        const outcome = outcomeOf(result);
        if ((rows.length === 1) !== (outcome === 'allowed')) {
          return 'error: effect does not match the answer';
        }
        return outcome;
      },
    });

    cases.push({
      group: 'rpc remove_organization_mail_server',
      name: `${actor.label} removes the organisation's mail server`,
      expected: asAdmin(actor),
      run: async () => {
        if (own) await storeFor(own);
        const outcome = outcomeOf(await actor.client.rpc('remove_organization_mail_server'));
        const removed = own ? !(await storedFor(own)) : false;
        if (own) await removeFor(own);
        if (removed !== (outcome === 'allowed')) return 'error: effect does not match the answer';
        return outcome;
      },
    });

    for (const target of ['A', 'B'] as const) {
      const on = `organisation ${target}`;

      cases.push({
        group: 'table organization_mail_servers',
        name: `${actor.label} reads the mail server of ${on}`,
        expected: allowedIf(admits('admin', standing(actor, target))),
        run: async () => {
          await storeFor(target);
          const { data, error } = await actor.client
            .from('organization_mail_servers')
            .select('host, port, username, has_password, from_address')
            .eq('organization_id', world.orgs[target].organisation.id);
          await removeFor(target);
          if (error) return 'denied';
          return data.length === 1 ? 'allowed' : 'denied';
        },
      });

      cases.push({
        group: 'table organization_mail_servers',
        name: `${actor.label} reads the mail server password of ${on}`,
        expected: 'denied',
        run: async () => {
          await storeFor(target);
          const { data, error } = await actor.client
            .from('organization_mail_servers')
            .select('password_ciphertext')
            .eq('organization_id', world.orgs[target].organisation.id);
          await removeFor(target);
          if (error) return 'denied';
          return data.length > 0 ? 'allowed' : 'denied';
        },
      });

      cases.push({
        group: 'table organization_mail_servers',
        name: `${actor.label} writes a mail server for ${on} directly`,
        expected: 'denied',
        run: async () => {
          await removeFor(target);
          await actor.client.from('organization_mail_servers').insert({
            organization_id: world.orgs[target].organisation.id,
            host: 'smtp.evil.example',
            port: 587,
            from_address: 'evil@example.org',
          });
          const inserted = await storedFor(target);
          await storeFor(target);
          await actor.client
            .from('organization_mail_servers')
            .update({ host: 'smtp.evil.example' })
            .eq('organization_id', world.orgs[target].organisation.id);
          const { rows } = await db
            .serverWork()
            .query<{ host: string }>(
              `select host from public.organization_mail_servers where organization_id = $1`,
              [world.orgs[target].organisation.id],
            );
          await removeFor(target);
          return inserted || rows[0]?.host === 'smtp.evil.example' ? 'allowed' : 'denied';
        },
      });

      cases.push({
        group: 'rpc store_organization_mail_server',
        name: `${actor.label} stores a mail server for ${on} without the edge function`,
        expected: 'denied',
        run: async () => {
          await removeFor(target);
          const result = await actor.client.rpc('store_organization_mail_server', {
            organization_id: world.orgs[target].organisation.id,
            host: 'smtp.evil.example',
            port: 587,
            username: 'x',
            password_ciphertext: 'plain',
            from_address: 'evil@example.org',
          });
          const stored = await storedFor(target);
          await removeFor(target);
          if (stored) return 'allowed';
          return result.error ? 'denied' : 'error: answered without storing';
        },
      });
    }
  }
  return cases;
}
