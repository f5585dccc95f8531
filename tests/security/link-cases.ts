/**
 * Share links and document requests (issue 25, items 3 and 4) × every actor × both
 * organisations: making a share link (`POST /share/v1/links`), `list_share_links`,
 * `revoke_share_link`, opening links without an account (a deactivated maker's link is dead);
 * `create_document_request`, `add_document_request_recipients`, `resend_document_request`,
 * `close_document_request`, and reading and writing the two request tables. Every case checks
 * its effect with the service role or the server's own database connection.
 */
import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { TestServer } from '../support/server.ts';
import { standing, type Actor, type OrgKey, type OrgWorld, type World } from './actors.ts';
import { admits, allowedIf, judgeWrite, type Case, type Outcome } from './cases.ts';
import { paragraph, wordDocument } from '../support/office-files.ts';
import { unwrap } from './world.ts';

const WORD_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

interface RpcResult {
  error: { message: string } | null;
  status: number;
}

function outcomeOf(result: RpcResult): Outcome {
  if (!result.error) return 'allowed';
  if (result.status === 401 || result.status === 403) return 'denied';
  return `error: ${result.error.message}`;
}

const tag = () => randomBytes(4).toString('hex');

/** Anonymous: denied; no organisation or deactivated: the functions' first refusal. */
function memberOutcome(actor: Actor): Outcome | null {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization' || actor.kind === 'deactivated') {
    return 'error: No organization found';
  }
  return null;
}

/** The request functions: admins only, then nothing of another organisation. */
function requestAdminOutcome(actor: Actor, target: OrgKey | null): Outcome {
  const first = memberOutcome(actor);
  if (first) return first;
  if (actor.kind === 'user') return 'error: Only admins can request documents';
  if (target && actor.org !== target) return 'error: Request not found';
  return 'allowed';
}

async function accessToken(client: SupabaseClient): Promise<string | null> {
  const { data } = await client.auth.getSession();
  return data.session?.access_token ?? null;
}

export function linkCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const service = () => server.service();

  /** A document of the organisation with a stored file (a text file, or a Word document). */
  async function documentOf(org: OrgWorld, word = false): Promise<string> {
    const filePath = `documents/${org.organisation.id}/${Date.now()}-${tag()}.${word ? 'docx' : 'txt'}`;
    const bytes = word
      ? wordDocument(paragraph('Shared handbook', { style: 'Heading1' }))
      : new TextEncoder().encode('shared file');
    unwrap(
      await service()
        .storage.from('documents')
        .upload(filePath, bytes, { contentType: word ? WORD_TYPE : 'text/plain' }),
      'upload',
    );
    // The row on the server's own connection, past row-level security as the service role's
    // REST insert was (one request fewer a case; the file above only the Storage API stores).
    const { rows } = await server.db.serverWork().query<{ id: string }>(
      `insert into public.documents (organization_id, name, category, file_path, size)
       values ($1, $2, 'Legal', $3, 11) returning id`,
      [org.organisation.id, `shared-${tag()}.${word ? 'docx' : 'txt'}`, filePath],
    );
    if (!rows[0]) throw new Error('document: no row inserted');
    return rows[0].id;
  }

  /** Rows read on the server's own connection, past row-level security. */
  const stored = async <T>(sql: string, params: unknown[]): Promise<T[]> =>
    (await server.db.serverWork().query<T & Record<string, unknown>>(sql, params)).rows;

  /** `POST /share/v1/links` as `client` (anonymous when it has no session). */
  async function makeLink(client: SupabaseClient, documentId: string) {
    const token = await accessToken(client);
    const response = await fetch(`${server.url}/share/v1/links`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        apikey: server.keys.anonKey,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ document_id: documentId }),
    });
    const json = (await response.json()) as { id?: string; token?: string; message?: string };
    return { status: response.status, json };
  }

  const linksOf = async (documentId: string) =>
    (
      await server.db
        .serverWork()
        .query<{ id: string; revoked_at: string | null; created_by: string }>(
          'select id, revoked_at, created_by from public.share_links where document_id = $1',
          [documentId],
        )
    ).rows;

  /** A request of the organisation, made by its master admin, with one handed-out link. */
  async function requestOf(org: OrgWorld) {
    const links = unwrap(
      await org.organisation.master.client.rpc('create_document_request', {
        title: `Certificate ${tag()}`,
        instructions: null,
        category: 'HR',
        tags: [],
        expiry_required: false,
        due_date: null,
        ask_for_renewal: false,
        recipients: [{ name: 'Someone' }],
      }),
      'request',
    ) as { request_id: string; recipient_id: string; token: string }[];
    return links[0]!;
  }

  for (const actor of world.actors) {
    for (const target of ['A', 'B'] as const) {
      const org = world.orgs[target];
      const who = standing(actor, target);

      cases.push({
        group: 'share links: make',
        name: `${actor.label} makes a share link of a document of ${target}`,
        expected:
          memberOutcome(actor) ?? (who === 'outsider' ? 'error: Document not found' : 'allowed'),
        run: async () => {
          const documentId = await documentOf(org);
          const { status, json } = await makeLink(actor.client, documentId);
          const made = await linksOf(documentId);
          const outcome: Outcome =
            status === 201
              ? 'allowed'
              : status === 401
                ? 'denied'
                : `error: ${json.message ?? status}`;
          if ((outcome === 'allowed') !== (made.length === 1)) {
            return 'error: effect does not match the answer';
          }
          if (outcome === 'allowed') {
            const opened = await fetch(`${server.url}/share/v1/s/${json.token}`);
            await opened.arrayBuffer();
            if (opened.status !== 200) return 'error: the new link does not open';
          }
          return outcome;
        },
      });

      cases.push({
        group: 'share links: revoke',
        name: `${actor.label} revokes a member's share link of ${target}`,
        expected:
          memberOutcome(actor) ??
          (admits('admin', who) ? 'allowed' : 'error: Share link not found'),
        run: async () => {
          const documentId = await documentOf(org);
          const made = await makeLink(org.bystander.client, documentId);
          const linkId = made.json.id!;
          const outcome = outcomeOf(
            await actor.client.rpc('revoke_share_link', { link_id: linkId }),
          );
          const [row] = await linksOf(documentId);
          const opened = await fetch(`${server.url}/share/v1/s/${made.json.token}`);
          await opened.arrayBuffer();
          const revoked = row!.revoked_at !== null;
          if (revoked !== (opened.status === 404)) return 'error: a revoked link still opens';
          if (outcome === 'allowed' && !revoked) return 'error: answered but not revoked';
          if (outcome !== 'allowed' && revoked) return 'error: revoked despite the refusal';
          return outcome;
        },
      });

      cases.push({
        group: 'share links: list',
        name: `${actor.label} lists share links and sees those of ${target} they may`,
        // Admins see every link of their organisation, members their own: never a bystander's
        // link of another organisation, nor of their own unless they are an admin.
        expected: memberOutcome(actor) ?? allowedIf(who !== 'outsider' && admits('admin', who)),
        run: async () => {
          const documentId = await documentOf(org);
          const made = await makeLink(org.bystander.client, documentId);
          const result = await actor.client.rpc('list_share_links', { document_id: null });
          if (result.error) return outcomeOf(result);
          const ids = (result.data as { id: string }[]).map((row) => row.id);
          return allowedIf(ids.includes(made.json.id!));
        },
      });

      cases.push({
        group: 'document requests: read',
        name: `${actor.label} reads the requests and recipients of ${target}`,
        expected: allowedIf(admits('admin', who)),
        run: async () => {
          const request = await requestOf(org);
          const requests = await actor.client
            .from('document_requests')
            .select('id')
            .eq('id', request.request_id);
          const recipients = await actor.client
            .from('document_request_recipients')
            .select('id')
            .eq('id', request.recipient_id);
          const seen = (requests.data?.length ?? 0) + (recipients.data?.length ?? 0);
          if (seen === 1) return 'error: one table shows the row and the other does not';
          return allowedIf(seen === 2);
        },
      });

      cases.push({
        group: 'document requests: write tables',
        name: `${actor.label} closes a request of ${target} by writing its row`,
        expected: 'denied',
        run: async () => {
          const request = await requestOf(org);
          const result = await actor.client
            .from('document_requests')
            .update({ closed_at: new Date().toISOString() })
            .eq('id', request.request_id);
          const [row] = await stored<{ closed: boolean }>(
            'select closed_at is not null as closed from public.document_requests where id = $1',
            [request.request_id],
          );
          if (!row) throw new Error('request: not found');
          return judgeWrite(result.error, row.closed);
        },
      });

      cases.push({
        group: 'rpc close_document_request',
        name: `${actor.label} closes a request of ${target}`,
        expected: requestAdminOutcome(actor, target),
        run: async () => {
          const request = await requestOf(org);
          const outcome = outcomeOf(
            await actor.client.rpc('close_document_request', { request_id: request.request_id }),
          );
          const page = await fetch(`${server.url}/requests/v1/${request.token}`);
          await page.arrayBuffer();
          if ((outcome === 'allowed') !== (page.status === 404)) {
            return 'error: effect does not match the answer';
          }
          return outcome;
        },
      });

      cases.push({
        group: 'rpc resend_document_request',
        name: `${actor.label} gives a recipient of ${target} a new link`,
        expected: requestAdminOutcome(actor, target),
        run: async () => {
          const request = await requestOf(org);
          const outcome = outcomeOf(
            await actor.client.rpc('resend_document_request', {
              recipient_id: request.recipient_id,
            }),
          );
          const page = await fetch(`${server.url}/requests/v1/${request.token}`);
          await page.arrayBuffer();
          // A new link replaces the old one.
          if ((outcome === 'allowed') !== (page.status === 404)) {
            return 'error: effect does not match the answer';
          }
          return outcome;
        },
      });

      cases.push({
        group: 'rpc add_document_request_recipients',
        name: `${actor.label} asks one more person in a request of ${target}`,
        expected: requestAdminOutcome(actor, target),
        run: async () => {
          const request = await requestOf(org);
          const outcome = outcomeOf(
            await actor.client.rpc('add_document_request_recipients', {
              request_id: request.request_id,
              recipients: [{ name: 'One more' }],
            }),
          );
          const rows = await stored<{ id: string }>(
            'select id from public.document_request_recipients where request_id = $1',
            [request.request_id],
          );
          if (outcome === 'allowed') {
            return rows.length === 2 ? 'allowed' : 'error: nobody was added';
          }
          return rows.length === 1 ? outcome : 'error: added despite the refusal';
        },
      });
    }

    cases.push({
      group: 'rpc create_document_request',
      name: `${actor.label} asks someone for a document`,
      expected: requestAdminOutcome(actor, null),
      run: async () => {
        const title = `Matrix request ${tag()}`;
        const outcome = outcomeOf(
          await actor.client.rpc('create_document_request', {
            title,
            instructions: null,
            category: 'HR',
            tags: [],
            expiry_required: false,
            due_date: null,
            ask_for_renewal: false,
            recipients: [{ name: 'Someone' }],
          }),
        );
        const rows = await stored<{ organization_id: string }>(
          'select organization_id from public.document_requests where title = $1',
          [title],
        );
        const own = actor.org ? world.orgs[actor.org].organisation.id : null;
        if (outcome === 'allowed') {
          return rows.length === 1 && rows[0]!.organization_id === own
            ? 'allowed'
            : 'error: no request in the own organisation';
        }
        return rows.length === 0 ? outcome : 'error: recorded despite the refusal';
      },
    });
  }

  // A deactivated member's links are dead, and stay dead if they come back.
  cases.push({
    group: 'share links: use',
    name: 'anonymous opens the link of a member who has since been deactivated',
    expected: 'denied',
    run: async () => {
      const org = world.orgs.A;
      const documentId = await documentOf(org);
      const made = await makeLink(org.bystander.client, documentId);
      unwrap(
        await org.organisation.master.client.rpc('deactivate_user', {
          user_id: org.bystander.userId,
        }),
        'deactivate',
      );
      unwrap(
        await org.organisation.master.client.rpc('reactivate_user', {
          user_id: org.bystander.userId,
        }),
        'reactivate',
      );
      const opened = await fetch(`${server.url}/share/v1/s/${made.json.token}`);
      await opened.arrayBuffer();
      return allowedIf(opened.status === 200);
    },
  });

  cases.push({
    group: 'share links: use',
    name: "anonymous fetches a link's file without the page's grant",
    expected: 'denied',
    run: async () => {
      const documentId = await documentOf(world.orgs.B);
      const made = await makeLink(world.orgs.B.bystander.client, documentId);
      const file = await fetch(`${server.url}/share/v1/s/${made.json.token}/file?download`);
      await file.arrayBuffer();
      return allowedIf(file.status === 200);
    },
  });

  // Previews of a shared Word file (issue 25, item 2): through the link's own rules.
  /** A link to a Word document of `org` by its bystander, opened: its token and page grant. */
  async function openedWordLink(org: OrgWorld) {
    const documentId = await documentOf(org, true);
    const made = await makeLink(org.bystander.client, documentId);
    const page = await fetch(`${server.url}/share/v1/s/${made.json.token}`);
    const { access } = (await page.json()) as { access: string };
    return { id: made.json.id!, token: made.json.token!, access };
  }
  const previewStatus = async (token: string, access: string | null) => {
    const query = access === null ? '' : `?access=${encodeURIComponent(access)}`;
    const response = await fetch(`${server.url}/share/v1/s/${token}/preview${query}`);
    const body = await response.text();
    if (response.status === 200 && !body.includes('<h1>Shared handbook</h1>')) {
      return `error: 200 without the document: ${body.slice(0, 200)}` as const;
    }
    return response.status;
  };
  cases.push({
    group: 'share links: preview',
    name: "anonymous previews a link's Word file with the page's grant",
    expected: 'allowed',
    run: async () => {
      const link = await openedWordLink(world.orgs.A);
      const status = await previewStatus(link.token, link.access);
      return typeof status === 'string' ? status : allowedIf(status === 200);
    },
  });
  cases.push({
    group: 'share links: preview',
    name: "anonymous previews a link's Word file without the page's grant, or with another link's",
    expected: 'denied',
    run: async () => {
      const link = await openedWordLink(world.orgs.A);
      const other = await openedWordLink(world.orgs.B);
      const statuses = [
        await previewStatus(link.token, null),
        await previewStatus(link.token, other.access),
      ];
      const leaked = statuses.find((status) => typeof status === 'string');
      if (leaked) return leaked;
      return allowedIf(statuses.some((status) => status === 200));
    },
  });
  cases.push({
    group: 'share links: preview',
    name: 'anonymous previews, with the grant it had, the link of a member since deactivated',
    expected: 'denied',
    run: async () => {
      const org = world.orgs.B;
      const link = await openedWordLink(org);
      unwrap(
        await org.organisation.master.client.rpc('deactivate_user', {
          user_id: org.bystander.userId,
        }),
        'deactivate',
      );
      unwrap(
        await org.organisation.master.client.rpc('reactivate_user', {
          user_id: org.bystander.userId,
        }),
        'reactivate',
      );
      const status = await previewStatus(link.token, link.access);
      return typeof status === 'string' ? status : allowedIf(status === 200);
    },
  });
  cases.push({
    group: 'share links: preview',
    name: 'anonymous previews, with the grant it had, a revoked link',
    expected: 'denied',
    run: async () => {
      const org = world.orgs.A;
      const link = await openedWordLink(org);
      unwrap(
        await org.organisation.master.client.rpc('revoke_share_link', { link_id: link.id }),
        'revoke',
      );
      const status = await previewStatus(link.token, link.access);
      return typeof status === 'string' ? status : allowedIf(status === 200);
    },
  });

  return cases;
}
