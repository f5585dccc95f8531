/**
 * The functions and the feed of renewals, e-mail and the calendar (issue 14) × every actor × both
 * organisations: `send_documents_email`, `invite_user_by_email`, `retry_outbox_message`,
 * `renew_document`, `create_calendar_feed`, `revoke_calendar_feed`, the service-only
 * `calendar_feed`, and the `calendar` edge function read without signing in. Every case checks
 * its effect past row-level security (on the server's own connection, or with the service role).
 * The matrix server has no SMTP: messages go to the Outbox.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import { standing, type Actor, type OrgKey, type OrgWorld, type World } from './actors.ts';
import type { Case, Outcome } from './cases.ts';
import { uniqueEmail, unwrap } from './world.ts';

interface RpcResult {
  error: { message: string } | null;
  status: number;
}

/** `allowed` on success, `denied` when the role may not call the function, else the error text. */
function outcomeOf(result: RpcResult): Outcome {
  if (!result.error) return 'allowed';
  if (result.status === 401 || result.status === 403) return 'denied';
  return `error: ${result.error.message}`;
}

const tag = () => randomBytes(4).toString('hex');
const isAdmin = (actor: Actor) => actor.kind === 'admin' || actor.kind === 'master_admin';

/** Anonymous: denied; no organisation or deactivated: the functions' first refusal. */
function memberOutcome(actor: Actor): Outcome | null {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization' || actor.kind === 'deactivated') {
    return 'error: No organization found';
  }
  return null;
}

/** A member's action on a document of `target`: outsiders find no such document. */
function documentAction(actor: Actor, target: OrgKey): Outcome {
  return (
    memberOutcome(actor) ??
    (standing(actor, target) === 'outsider' ? 'error: Document not found' : 'allowed')
  );
}

/**
 * Rows read or written on the server's own connection, past row-level security as the service
 * role's REST requests were: a case's fixtures and effects, without a request each.
 */
async function sql<T>(server: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  return (await server.db.serverWork().query<T & Record<string, unknown>>(text, params)).rows;
}

/** A document row of the organisation, with a stored file when `withFile`. */
async function documentOf(server: TestServer, org: OrgWorld, withFile: boolean) {
  const filePath = `documents/${org.organisation.id}/${Date.now()}-${tag()}.txt`;
  if (withFile) await uploadAsService(server, filePath, 'matrix file');
  const [row] = await sql<{ id: string; file_path: string }>(
    server,
    `insert into public.documents (organization_id, name, category, file_path, size, expiry_date)
     values ($1, $2, 'Legal', $3, 11, '2027-06-30') returning id, file_path`,
    [org.organisation.id, `matrix-${tag()}.txt`, filePath],
  );
  if (!row) throw new Error('matrix document: no row inserted');
  return row;
}

async function uploadAsService(server: TestServer, filePath: string, content: string) {
  unwrap(
    await server
      .service()
      .storage.from('documents')
      .upload(filePath, new TextEncoder().encode(content), { contentType: 'text/plain' }),
    `upload ${filePath}`,
  );
}

const feedUrl = (server: TestServer, token: string) =>
  `${server.url}/functions/v1/calendar/${token}.ics`;

export function renewalCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const service = () => server.service();
  /** The caller's calendar addresses, and removing them (before and after a case). */
  const feedsOf = (userId: string) =>
    sql<{ id: string }>(server, 'select id from public.calendar_feeds where user_id = $1', [
      userId,
    ]);
  const removeFeeds = (userId: string) =>
    sql(server, 'delete from public.calendar_feeds where user_id = $1', [userId]);
  const ownOrg = (actor: Actor): OrgWorld | null => (actor.org ? world.orgs[actor.org] : null);

  for (const actor of world.actors) {
    const group = (fn: string) => `rpc ${fn}`;

    cases.push({
      group: group('invite_user_by_email'),
      name: `${actor.label} invites someone by e-mail`,
      expected:
        actor.kind === 'anonymous'
          ? 'denied'
          : actor.kind === 'no_organization'
            ? 'error: No organization found'
            : isAdmin(actor)
              ? 'allowed'
              : 'error: Insufficient permissions to invite users',
      run: async () => {
        const email = uniqueEmail('matrix-mail-invite');
        const outcome = outcomeOf(
          await actor.client.rpc('invite_user_by_email', { email, role: 'user', full_name: null }),
        );
        const invitations = await sql<{ organization_id: string }>(
          server,
          'select organization_id from public.user_invitations where email = $1',
          [email],
        );
        const messages = await sql<{ organization_id: string; status: string }>(
          server,
          `select organization_id, status from public.outbox_messages
            where kind = 'invitation' and recipients @> array[$1]::text[]`,
          [email],
        );
        const own = ownOrg(actor)?.organisation.id;
        if (outcome === 'allowed') {
          if (invitations[0]?.organization_id !== own || messages[0]?.organization_id !== own) {
            return 'error: no invitation and message in the own organisation';
          }
          if (messages[0]?.status !== 'outbox') return 'error: the message claims delivery';
        } else if (invitations.length > 0 || messages.length > 0) {
          return 'error: recorded despite the refusal';
        }
        return outcome;
      },
    });

    cases.push({
      group: group('create_calendar_feed'),
      name: `${actor.label} makes their calendar address`,
      expected: memberOutcome(actor) ?? 'allowed',
      run: async () => {
        if (actor.person) await removeFeeds(actor.person.userId);
        const outcome = outcomeOf(
          await actor.client.rpc('create_calendar_feed', { scope: 'mine' }),
        );
        const rows = actor.person ? await feedsOf(actor.person.userId) : [];
        if ((rows.length === 1) !== (outcome === 'allowed')) {
          return 'error: effect does not match the answer';
        }
        if (actor.person) await removeFeeds(actor.person.userId);
        return outcome;
      },
    });

    cases.push({
      group: group('revoke_calendar_feed'),
      name: `${actor.label} removes their calendar address`,
      expected: actor.kind === 'anonymous' ? 'denied' : 'allowed',
      run: async () => {
        const org = ownOrg(actor);
        if (actor.person && org) {
          await removeFeeds(actor.person.userId);
          await sql(
            server,
            `insert into public.calendar_feeds (user_id, organization_id, scope)
             values ($1, $2, 'all')`,
            [actor.person.userId, org.organisation.id],
          );
        }
        const outcome = outcomeOf(await actor.client.rpc('revoke_calendar_feed'));
        if (actor.person) {
          const left = await feedsOf(actor.person.userId);
          if (outcome === 'allowed' && left.length > 0) return 'error: the address is still there';
          await removeFeeds(actor.person.userId);
        }
        return outcome;
      },
    });

    cases.push({
      group: group('calendar_feed'),
      name: `${actor.label} reads a feed through the API instead of the function`,
      expected: 'denied',
      run: async () =>
        outcomeOf(
          await actor.client.rpc('calendar_feed', { token: randomBytes(32).toString('hex') }),
        ),
    });

    if (actor.person) {
      const person = actor.person;
      cases.push({
        group: 'function calendar',
        name: `${actor.label} subscribes to their calendar address`,
        expected: memberOutcome(actor) ?? 'allowed',
        run: async () => {
          const made = await actor.client
            .rpc('create_calendar_feed', { scope: 'all' })
            .single<{ token: string }>();
          if (made.error) return outcomeOf(made);
          try {
            const response = await fetch(feedUrl(server, made.data.token));
            if (response.status !== 200) return 'denied';
            const uids = [...(await response.text()).matchAll(/^UID:(.+)@steward\r?$/gm)].map(
              (m) => m[1]!,
            );
            const own = await sql<{ id: string }>(
              server,
              `select id from public.documents
                where organization_id = $1 and expiry_date is not null`,
              [ownOrg(actor)!.organisation.id],
            );
            const ownIds = new Set(own.map((d) => d.id));
            if (uids.length === 0) return 'error: the feed lists nothing';
            if (uids.some((uid) => !ownIds.has(uid))) {
              return 'error: the feed shows another organisation’s documents';
            }
            return 'allowed';
          } finally {
            await removeFeeds(person.userId);
          }
        },
      });
    }

    for (const target of ['A', 'B'] as const) {
      const org = world.orgs[target];

      cases.push({
        group: group('send_documents_email'),
        name: `${actor.label} e-mails a document of ${target}`,
        expected: documentAction(actor, target),
        run: async () => {
          const document = await documentOf(server, org, false);
          const subject = `Matrix mail ${tag()}`;
          const outcome = outcomeOf(
            await actor.client.rpc('send_documents_email', {
              recipients: ['outside@example.org'],
              subject,
              message: null,
              document_ids: [document.id],
              as_links: false,
            }),
          );
          const messages = await sql<{ organization_id: string; status: string }>(
            server,
            'select organization_id, status from public.outbox_messages where subject = $1',
            [subject],
          );
          if (outcome === 'allowed') {
            if (messages.length !== 1 || messages[0]!.organization_id !== org.organisation.id) {
              return 'error: no message in the document’s organisation';
            }
            if (messages[0]!.status !== 'outbox') return 'error: the message claims delivery';
          } else if (messages.length > 0) {
            return 'error: recorded despite the refusal';
          }
          return outcome;
        },
      });

      cases.push({
        group: group('retry_outbox_message'),
        name: `${actor.label} sends a failed message of ${target} again`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : actor.kind === 'no_organization'
              ? 'error: No organization found'
              : !isAdmin(actor)
                ? 'error: Insufficient permissions to manage the outbox'
                : standing(actor, target) === 'outsider'
                  ? 'error: Message not found'
                  : // Without SMTP nothing can be sent again: the last check refuses.
                    'error: E-mail delivery is not configured: messages stay in the Outbox',
        run: async () => {
          const [message] = await sql<{ id: string }>(
            server,
            `insert into public.outbox_messages
               (organization_id, kind, recipients, subject, status, last_error)
             values ($1, 'documents', '{outside@example.org}', $2, 'failed', '550 No such user')
             returning id`,
            [org.organisation.id, `Failed ${tag()}`],
          );
          if (!message) throw new Error('failed message: no row inserted');
          const outcome = outcomeOf(
            await actor.client.rpc('retry_outbox_message', { message_id: message.id }),
          );
          const after = await sql<{ status: string }>(
            server,
            'select status from public.outbox_messages where id = $1',
            [message.id],
          );
          if ((after[0]?.status === 'failed') === (outcome === 'allowed')) {
            return 'error: effect does not match the answer';
          }
          return outcome;
        },
      });

      cases.push({
        group: group('renew_document'),
        name: `${actor.label} renews a document of ${target}`,
        expected: documentAction(actor, target),
        run: async () => {
          const document = await documentOf(server, org, true);
          const renewed = `documents/${org.organisation.id}/${Date.now()}-${tag()}.txt`;
          await uploadAsService(server, renewed, 'matrix renewal');
          const outcome = outcomeOf(
            await actor.client.rpc('renew_document', {
              document_id: document.id,
              file_path: renewed,
              expiry_date: '2030-06-30',
            }),
          );
          const row = await sql<{ file_path: string }>(
            server,
            'select file_path from public.documents where id = $1',
            [document.id],
          );
          const versions = await sql<{ file_path: string }>(
            server,
            'select file_path from public.document_versions where document_id = $1',
            [document.id],
          );
          const changed = row[0]?.file_path === renewed;
          if (changed !== (outcome === 'allowed')) return 'error: effect does not match the answer';
          if (changed && versions[0]?.file_path !== document.file_path) {
            return 'error: the previous file was not kept as a version';
          }
          return outcome;
        },
      });
    }
  }

  // Addresses that must not answer, whoever asks (the feed is read without signing in).
  for (const target of ['A', 'B'] as const) {
    const org = world.orgs[target];
    cases.push({
      group: 'function calendar',
      name: `a deactivated member's address in ${target}`,
      expected: 'denied',
      run: async () => {
        const token = randomBytes(32).toString('hex');
        await server.db.serverWork().query(
          `with feed as (
             insert into public.calendar_feeds (user_id, organization_id, scope)
             values ($1, $2, 'all')
             on conflict (user_id) do update set scope = 'all'
             returning id
           )
           insert into private.calendar_feed_tokens (feed_id, token_hash)
           select id, $3 from feed
           on conflict (feed_id) do update set token_hash = excluded.token_hash`,
          [
            org.deactivatedBystander.userId,
            org.organisation.id,
            createHash('sha256').update(token).digest('hex'),
          ],
        );
        const response = await fetch(feedUrl(server, token));
        return response.status === 200
          ? 'allowed'
          : response.status === 404
            ? 'denied'
            : `error: status ${response.status}`;
      },
    });
  }
  // A member's address ends with their membership: reactivation does not bring it back.
  for (const target of ['A', 'B'] as const) {
    const org = world.orgs[target];
    cases.push({
      group: 'function calendar',
      name: `a reactivated member's earlier address in ${target}`,
      expected: 'denied',
      run: async () => {
        const { bystander, organisation } = org;
        const made = await bystander.client
          .rpc('create_calendar_feed', { scope: 'all' })
          .single<{ token: string }>();
        if (made.error) return `error: ${made.error.message}`;
        try {
          for (const fn of ['deactivate_user', 'reactivate_user']) {
            const { error } = await organisation.master.client.rpc(fn, {
              user_id: bystander.userId,
            });
            if (error) return `error: ${fn}: ${error.message}`;
          }
          const response = await fetch(feedUrl(server, made.data.token));
          return response.status === 200
            ? 'allowed'
            : response.status === 404
              ? 'denied'
              : `error: status ${response.status}`;
        } finally {
          await removeFeeds(bystander.userId);
          await service()
            .from('user_profiles')
            .update({ is_active: true })
            .eq('id', bystander.userId);
        }
      },
    });
  }
  cases.push({
    group: 'function calendar',
    name: 'anonymous reads an address that was never made',
    expected: 'denied',
    run: async () => {
      const response = await fetch(feedUrl(server, randomBytes(32).toString('hex')));
      return response.status === 404 ? 'denied' : `error: status ${response.status}`;
    },
  });
  return cases;
}
