/**
 * Access per category (issue 23) × every role × the group a member is in × both organisations:
 * each organisation restricts a category of its own, "Safeguarding", to a group with `view`
 * and a group with `edit`. People: in each organisation a Viewer, a user and an admin in no
 * group, in the view group and in the edit group; its master admin (who always has full
 * access); a deactivated member of the edit group; and the anonymous caller. For every path a
 * document takes (rows, texts, versions, history, trash, search, counters, duplicates, stored
 * files, signed links, e-mail) a case checks that those who may view it find it and nobody else
 * does, and for every write (upload into, edit, move out, delete) that only those who may edit
 * it can. Effects are checked with the server's own connection.
 */
import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { signedObjectUrl, urlSigningKey } from '../../server/storage/signed-url.ts';
import { uploadDocument } from '../support/documents.ts';
import { paragraph, wordDocument } from '../support/office-files.ts';
import type { TestServer } from '../support/server.ts';
import type { OrgKey, World } from './actors.ts';
import { allowedIf, type Case, type Outcome } from './cases.ts';
import { addMember, unwrap, type Person } from './world.ts';

type Grant = 'none' | 'view' | 'edit';

interface AccessActor {
  label: string;
  org: OrgKey | null;
  role: 'viewer' | 'user' | 'admin' | 'master_admin' | 'deactivated' | 'anonymous';
  grant: Grant;
  client: SupabaseClient;
  person: Person | null;
}

interface RestrictedDocument {
  id: string;
  filePath: string;
  sha256: string;
  /** A word only inside its file. */
  word: string;
  /** A Word document of the same category (its previews, issue 25). */
  wordFilePath: string;
}

interface AccessWorld {
  actors: AccessActor[];
  documents: Record<OrgKey, RestrictedDocument>;
  trashed: Record<OrgKey, string>;
  /** Every document of the organisation in use, and those of the restricted category. */
  counts: (org: OrgKey) => Promise<{ all: number; restricted: number }>;
}

/** The restricted category of each organisation (names of their own, so counts tell them apart). */
const categoryOf = (key: OrgKey) => `Safeguarding ${key}`;

async function buildAccessWorld(server: TestServer, world: World): Promise<AccessWorld> {
  const actors: AccessActor[] = [
    {
      label: 'anonymous',
      org: null,
      role: 'anonymous',
      grant: 'none',
      client: server.anon(),
      person: null,
    },
  ];
  const documents = {} as Record<OrgKey, RestrictedDocument>;
  const trashed = {} as Record<OrgKey, string>;
  for (const key of ['A', 'B'] as const) {
    const { organisation } = world.orgs[key];
    const master = organisation.master;
    const groups: Record<'view' | 'edit', { id: string; members: string[] }> = {
      view: { id: '', members: [] },
      edit: { id: '', members: [] },
    };
    for (const grant of ['view', 'edit'] as const) {
      groups[grant].id = unwrap(
        await master.client.rpc('create_member_group', { name: `${grant} ${categoryOf(key)}` }),
        'create_member_group',
      ) as string;
    }
    for (const role of ['viewer', 'user', 'admin'] as const) {
      for (const grant of ['none', 'view', 'edit'] as const) {
        const person = await addMember(server, organisation, role, `${key}-${role}-${grant}`);
        if (grant !== 'none') groups[grant].members.push(person.userId);
        actors.push({
          label: `${key}.${role} in ${grant === 'none' ? 'no group' : `the ${grant} group`}`,
          org: key,
          role,
          grant,
          client: person.client,
          person,
        });
      }
    }
    const deactivated = await addMember(server, organisation, 'user', `${key}-deactivated-edit`);
    groups.edit.members.push(deactivated.userId);
    actors.push({
      label: `${key}.master_admin`,
      org: key,
      role: 'master_admin',
      grant: 'none',
      client: master.client,
      person: master,
    });
    actors.push({
      label: `${key}.deactivated in the edit group`,
      org: key,
      role: 'deactivated',
      grant: 'edit',
      client: deactivated.client,
      person: deactivated,
    });

    const category = unwrap(
      await master.client.rpc('create_document_category', { name: categoryOf(key) }),
      'create_document_category',
    ) as string;
    const word = `zq${randomBytes(5).toString('hex')}`;
    const uploaded = await uploadDocument(master, organisation.id, {
      name: `Safeguarding log ${key}.txt`,
      bytes: `Concerns raised this term: ${word}.`,
      contentType: 'text/plain;charset=UTF-8',
      category: categoryOf(key),
    });
    const plan = await uploadDocument(master, organisation.id, {
      name: `Safeguarding plan ${key}.docx`,
      bytes: wordDocument(paragraph(`Safeguarding plan of ${key}`, { style: 'Heading1' })),
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      category: categoryOf(key),
    });
    const old = await uploadDocument(master, organisation.id, {
      name: `Old safeguarding log ${key}.txt`,
      bytes: `Last year ${randomBytes(4).toString('hex')}`,
      contentType: 'text/plain;charset=UTF-8',
      category: categoryOf(key),
    });
    unwrap(
      await master.client.rpc('delete_documents', { document_ids: [old.id] }),
      'delete_documents',
    );
    trashed[key] = old.id;
    // An earlier version, and a download recorded in the history once it is restricted.
    const next = `documents/${organisation.id}/${randomBytes(6).toString('hex')}.txt`;
    unwrap(
      await master.client.storage
        .from('documents')
        .upload(next, Buffer.from(`Concerns raised this term: ${word}, and more.`), {
          contentType: 'text/plain;charset=UTF-8',
        }),
      'upload the next file',
    );
    unwrap(
      await master.client.rpc('replace_document_file', {
        document_id: uploaded.id,
        file_path: next,
        change: 'content_edit',
      }),
      'replace_document_file',
    );
    for (const grant of ['view', 'edit'] as const) {
      unwrap(
        await master.client.rpc('set_member_group_members', {
          group_id: groups[grant].id,
          user_ids: groups[grant].members,
        }),
        'set_member_group_members',
      );
    }
    unwrap(
      await master.client.rpc('set_category_access', {
        category_id: category,
        restricted: true,
        rules: [
          { group_id: groups.view.id, access: 'view' },
          { group_id: groups.edit.id, access: 'edit' },
        ],
      }),
      'set_category_access',
    );
    unwrap(
      await master.client.rpc('deactivate_user', { user_id: deactivated.userId }),
      'deactivate_user',
    );
    unwrap(await master.client.storage.from('documents').download(next), 'download');
    // A message about it in the Outbox (no SMTP here), sent by the master admin.
    unwrap(
      await master.client.rpc('send_documents_email', {
        recipients: ['auditor@example.org'],
        subject: 'The log',
        message: null,
        document_ids: [uploaded.id],
        as_links: true,
      }),
      'send_documents_email',
    );
    const { rows } = await server.db
      .serverWork()
      .query<{ content_sha256: string }>(
        `select content_sha256 from public.documents where id = $1`,
        [uploaded.id],
      );
    documents[key] = {
      id: uploaded.id,
      filePath: next,
      sha256: rows[0]!.content_sha256,
      word,
      wordFilePath: plan.filePath,
    };
  }
  await server.jobs.runDue();

  const counts = async (key: OrgKey) => {
    const { rows } = await server.db.serverWork().query<{ all: number; restricted: number }>(
      `select count(*)::integer as all,
              (count(*) filter (where category = $2))::integer as restricted
         from public.documents where organization_id = $1 and deleted_at is null`,
      [world.orgs[key].organisation.id, categoryOf(key)],
    );
    return rows[0]!;
  };
  return { actors, documents, trashed, counts };
}

interface Answer {
  data: unknown;
  error: { message: string } | null;
  status: number;
}

/** A read judged by what it found; a refusal of the anonymous role is `denied`. */
function found(answer: Answer, seen: boolean): Outcome {
  if (answer.status === 401 || answer.status === 403) return 'denied';
  return allowedIf(seen);
}

const rowsOf = (answer: Answer) => (answer.data ?? []) as Record<string, unknown>[];

export function categoryAccessCases(server: TestServer, world: World): Case[] {
  let built: Promise<AccessWorld> | null = null;
  const accessWorld = () => (built ??= buildAccessWorld(server, world));
  const cases: Case[] = [];

  // The actors are known only once the world is built; the cases are listed by role and group.
  const labels: { label: string; org: OrgKey | null; role: AccessActor['role']; grant: Grant }[] = [
    { label: 'anonymous', org: null, role: 'anonymous', grant: 'none' },
  ];
  for (const key of ['A', 'B'] as const) {
    for (const role of ['viewer', 'user', 'admin'] as const) {
      for (const grant of ['none', 'view', 'edit'] as const) {
        labels.push({
          label: `${key}.${role} in ${grant === 'none' ? 'no group' : `the ${grant} group`}`,
          org: key,
          role,
          grant,
        });
      }
    }
    labels.push({ label: `${key}.master_admin`, org: key, role: 'master_admin', grant: 'none' });
    labels.push({
      label: `${key}.deactivated in the edit group`,
      org: key,
      role: 'deactivated',
      grant: 'edit',
    });
  }

  for (const who of labels) {
    for (const target of ['A', 'B'] as const) {
      const mine = who.org === target;
      const canView =
        mine &&
        (who.role === 'master_admin' || (who.role !== 'deactivated' && who.grant !== 'none'));
      const canEdit =
        mine &&
        (who.role === 'master_admin' ||
          ((who.role === 'user' || who.role === 'admin') && who.grant === 'edit'));
      const on = `the restricted document of ${target}`;
      const add = (
        group: string,
        what: string,
        expected: Outcome,
        run: (a: AccessActor, w: AccessWorld) => Promise<Outcome>,
      ) =>
        cases.push({
          group,
          name: `${who.label} ${what} ${on}`,
          expected,
          run: async () => {
            const w = await accessWorld();
            const actor = w.actors.find((a) => a.label === who.label)!;
            return run(actor, w);
          },
        });
      const view = allowedIf(canView);
      const edit = allowedIf(canEdit);

      add('table documents', 'reads', view, async (a, w) => {
        const answer = await a.client
          .from('documents')
          .select('id')
          .eq('id', w.documents[target].id);
        return found(answer, rowsOf(answer).length === 1);
      });
      add('table document_texts', 'reads the text state of', view, async (a, w) => {
        const answer = await a.client
          .from('document_texts')
          .select('document_id')
          .eq('document_id', w.documents[target].id);
        return found(answer, rowsOf(answer).length === 1);
      });
      add('table document_versions', 'reads the versions of', view, async (a, w) => {
        const answer = await a.client
          .from('document_versions')
          .select('id')
          .eq('document_id', w.documents[target].id);
        return found(answer, rowsOf(answer).length > 0);
      });
      add('table activity_log', 'reads the history of', view, async (a, w) => {
        const answer = await a.client
          .from('activity_log')
          .select('kind')
          .eq('document_id', w.documents[target].id)
          .eq('kind', 'document.uploaded');
        return found(answer, rowsOf(answer).length > 0);
      });
      add('table activity_log', 'reads who downloaded', edit, async (a, w) => {
        const answer = await a.client
          .from('activity_log')
          .select('kind')
          .eq('document_id', w.documents[target].id)
          .eq('kind', 'document.downloaded');
        return found(answer, rowsOf(answer).length > 0);
      });
      add('rpc list_trash', 'finds in the trash', view, async (a, w) => {
        const answer = await a.client.rpc('list_trash');
        return found(
          answer,
          rowsOf(answer).some((row) => row.id === w.trashed[target]),
        );
      });
      add('rpc search_documents', 'finds by a word inside', view, async (a, w) => {
        const answer = await a.client.rpc('search_documents', { search: w.documents[target].word });
        return found(
          answer,
          rowsOf(answer).some((row) => row.id === w.documents[target].id),
        );
      });
      add('rpc search_documents', 'counts (the unfiltered total)', view, async (a, w) => {
        const answer = await a.client.rpc('search_documents', { page_size: 1 });
        if (answer.status === 401 || !mine || rowsOf(answer).length === 0) {
          return found(answer, false);
        }
        const { all, restricted } = await w.counts(target);
        const total = Number(rowsOf(answer)[0]!.total_count);
        if (total === all) return 'allowed';
        if (total === all - restricted) return 'denied';
        return `error: total ${total} is neither ${all} nor ${all - restricted}`;
      });
      add('rpc document_stats', 'counts', view, async (a, w) => {
        const answer = await a.client.rpc('document_stats');
        if (answer.status === 401 || !mine || answer.error) return found(answer, false);
        const { all, restricted } = await w.counts(target);
        const total = (answer.data as { total: number }).total;
        if (total === all) return 'allowed';
        if (total === all - restricted) return 'denied';
        return `error: total ${total} is neither ${all} nor ${all - restricted}`;
      });
      add('rpc count_documents_matching', 'counts by its category', view, async (a) => {
        const answer = await a.client.rpc('count_documents_matching', { term: categoryOf(target) });
        return found(answer, !answer.error && Number(answer.data) > 0);
      });
      add('rpc find_duplicate_documents', 'finds a duplicate of', view, async (a, w) => {
        const answer = await a.client.rpc('find_duplicate_documents', {
          sha256: w.documents[target].sha256,
        });
        return found(
          answer,
          rowsOf(answer).some((row) => row.id === w.documents[target].id),
        );
      });
      add('storage documents', 'downloads the file of', view, async (a, w) => {
        const answer = await a.client.storage
          .from('documents')
          .download(w.documents[target].filePath);
        return allowedIf(answer.error === null);
      });
      add('storage documents', 'makes a signed link to', view, async (a, w) => {
        const answer = await a.client.storage
          .from('documents')
          .createSignedUrl(w.documents[target].filePath, 60);
        if (answer.error) return 'denied';
        return allowedIf((await fetch(answer.data.signedUrl)).status === 200);
      });
      // "Who looked" (issue 27): the storage server records a look in the very statement that
      // reads the file as the caller, through this function; called by itself it records a
      // look only at a file the caller may read, in the caller's name, once a minute.
      add('rpc record_document_looks', 'records a look at', view, async (a, w) => {
        const answer = await a.client.rpc('record_document_looks', {
          object_names: [w.documents[target].filePath, w.documents[target].filePath],
          action: 'viewed',
        });
        if (answer.status === 401 || answer.status === 403) return 'denied';
        if (answer.error) return `error: ${answer.error.message}`;
        const { rows } = await server.db.serverWork().query<{ looks: number }>(
          `select count(*)::integer as looks from public.activity_log
            where document_id = $1 and actor_id = $2 and kind = 'document.viewed'
              and occurred_at > now() - interval '1 minute'`,
          [w.documents[target].id, a.person!.userId],
        );
        const looks = rows[0]!.looks;
        if (answer.data === 1 && looks === 1) return 'allowed';
        if (answer.data === 0 && looks === 0) return 'denied';
        return `error: answered ${JSON.stringify(answer.data)} with ${looks} looks recorded`;
      });
      // Previews (issue 25): Steward's rendering of a Word file and a file under its name, at
      // the address the app makes from its signed link. First as the app does it (the actor
      // signs the link), then with a link signed in the actor's name beforehand, as if made
      // before they lost access: the preview is read as its signer now, under the same rules.
      const previewThrough = async (
        signedUrl: string,
        kind: 'office' | 'file',
        name: string,
      ): Promise<Outcome> => {
        const token = new URL(signedUrl, server.url).searchParams.get('token')!;
        const response = await fetch(
          `${server.url}/preview/v1/${kind}/${encodeURIComponent(name)}?token=${token}`,
        );
        const body = await response.text();
        if (response.status === 200) {
          return kind === 'office' && !body.includes(`Safeguarding plan of ${target}`)
            ? `error: the preview does not show the plan: ${body.slice(0, 200)}`
            : 'allowed';
        }
        return response.status === 400 && body.includes('NoSuchKey')
          ? 'denied'
          : `error: ${response.status} ${body.slice(0, 200)}`;
      };
      add('preview documents', 'previews the Word file of', view, async (a, w) => {
        const answer = await a.client.storage
          .from('documents')
          .createSignedUrl(w.documents[target].wordFilePath, 60);
        if (answer.error) return 'denied';
        return previewThrough(answer.data.signedUrl, 'office', 'Safeguarding plan.docx');
      });
      add('preview documents', 'opens under its name the file of', view, async (a, w) => {
        const answer = await a.client.storage
          .from('documents')
          .createSignedUrl(w.documents[target].filePath, 60);
        if (answer.error) return 'denied';
        return previewThrough(answer.data.signedUrl, 'file', 'Safeguarding log.txt');
      });
      for (const kind of ['office', 'file'] as const) {
        add(
          'preview documents',
          `uses a ${kind} preview link signed in their name beforehand for`,
          view,
          async (a, w) => {
            const url = signedObjectUrl(
              urlSigningKey(server.keys.jwtSecret),
              'documents',
              kind === 'office' ? w.documents[target].wordFilePath : w.documents[target].filePath,
              60,
              a.person
                ? { role: 'authenticated', sub: a.person.userId, aal: 'aal1' }
                : { role: 'anon', sub: null, aal: 'aal1' },
            );
            return previewThrough(url, kind, 'Safeguarding.docx');
          },
        );
      }
      add(
        'rpc send_documents_email',
        'sends',
        allowedIf(canView && who.role !== 'viewer'),
        async (a, w) => {
          const answer = await a.client.rpc('send_documents_email', {
            recipients: ['auditor@example.org'],
            subject: 'Files',
            message: null,
            document_ids: [w.documents[target].id],
            as_links: true,
          });
          return found(answer, answer.error === null);
        },
      );

      add(
        'table outbox_messages',
        'reads the e-mail about',
        allowedIf(canView && (who.role === 'admin' || who.role === 'master_admin')),
        async (a, w) => {
          const answer = await a.client.from('outbox_messages').select('attachments');
          return found(
            answer,
            rowsOf(answer).some((row) =>
              (row.attachments as { document_id: string }[]).some(
                (item) => item.document_id === w.documents[target].id,
              ),
            ),
          );
        },
      );

      // Writes: judged by their effect, then undone with the server's connection.
      add('table documents', 'uploads into the category of', edit, async (a) => {
        const name = `new-${randomBytes(4).toString('hex')}.txt`;
        const organisation = world.orgs[target].organisation;
        await a.client.from('documents').insert({
          organization_id: organisation.id,
          name,
          category: categoryOf(target),
          file_path: `documents/${organisation.id}/${randomBytes(6).toString('hex')}.txt`,
        });
        const { rows } = await server.db
          .serverWork()
          .query(
            `delete from public.documents where organization_id = $1 and name = $2 returning id`,
            [organisation.id, name],
          );
        return allowedIf(rows.length === 1);
      });
      add('table documents', 'edits', edit, async (a, w) => {
        const description = `edited ${randomBytes(4).toString('hex')}`;
        await a.client.from('documents').update({ description }).eq('id', w.documents[target].id);
        const { rows } = await server.db
          .serverWork()
          .query<{ description: string | null }>(
            `select description from public.documents where id = $1`,
            [w.documents[target].id],
          );
        return allowedIf(rows[0]!.description === description);
      });
      add('rpc set_documents_category', 'moves out', edit, async (a, w) => {
        const id = w.documents[target].id;
        await a.client.rpc('set_documents_category', { document_ids: [id], new_category: 'Other' });
        const { rows } = await server.db
          .serverWork()
          .query<{ category: string }>(`select category from public.documents where id = $1`, [id]);
        if (rows[0]!.category === categoryOf(target)) return 'denied';
        await server.db
          .serverWork()
          .query(`update public.documents set category = $2 where id = $1`, [
            id,
            categoryOf(target),
          ]);
        return 'allowed';
      });
      add('rpc delete_documents', 'moves to the trash', edit, async (a, w) => {
        const id = w.documents[target].id;
        await a.client.rpc('delete_documents', { document_ids: [id] });
        const { rows } = await server.db
          .serverWork()
          .query<{ trashed: boolean }>(
            `select deleted_at is not null as trashed from public.documents where id = $1`,
            [id],
          );
        if (!rows[0]!.trashed) return 'denied';
        await server.db
          .serverWork()
          .query(`update public.documents set deleted_at = null, deleted_by = null where id = $1`, [
            id,
          ]);
        return 'allowed';
      });
    }
  }
  return cases;
}
