/**
 * The functions of issue 13 × every actor × both organisations: searching, finding duplicates
 * and the bulk actions. A member of the organisation finds and changes its documents; anyone
 * else finds nothing and changes nothing (the bulk actions then say the documents were not
 * found), and the anonymous role may not call them at all. Effects are checked with the
 * server's own connection.
 */
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import { standing, type OrgWorld, type World } from './actors.ts';
import { admits, type Case, type Outcome } from './cases.ts';

interface RpcResult {
  data: unknown;
  error: { message: string } | null;
  status: number;
}

/** The answer judged with its effect: `allowed` only when the call worked and did what it says. */
function judged(result: RpcResult, worked: boolean): Outcome {
  if (result.status === 401 || result.status === 403) return 'denied';
  if (result.error)
    return worked ? 'error: changed despite an error' : `error: ${result.error.message}`;
  return worked ? 'allowed' : 'denied';
}

async function documentOf(server: TestServer, org: OrgWorld, name: string): Promise<string> {
  const { rows } = await server.db.serverWork().query<{ id: string }>(
    `insert into public.documents (organization_id, name, category, file_path, tags)
     values ($1, $2, 'HR', $3, '{keep}') returning id`,
    [
      org.organisation.id,
      name,
      `documents/${org.organisation.id}/${randomBytes(6).toString('hex')}.txt`,
    ],
  );
  const id = rows[0]!.id;
  // A hash as if its file had been stored (there is no file: the trigger found none).
  await server.db.serverWork().query(
    `update public.documents set content_sha256 = encode(sha256(convert_to(name, 'UTF8')), 'hex')
      where id = $1`,
    [id],
  );
  return id;
}

async function documentRow(server: TestServer, id: string) {
  const { rows } = await server.db.serverWork().query<{
    category: string;
    tags: string[];
    expiry_date: string | null;
    deleted_at: string | null;
  }>(`select category, tags, expiry_date::text, deleted_at::text from public.documents where id = $1`, [id]);
  return rows[0] ?? null;
}

export function searchCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  for (const actor of world.actors) {
    for (const org of Object.values(world.orgs)) {
      const on = `a document of ${org.key}`;
      const member = admits('member', standing(actor, org.key));
      const refused: Outcome =
        actor.kind === 'anonymous'
          ? 'denied'
          : member
            ? 'allowed'
            : 'error: Some of the selected documents were not found';
      const readOutcome: Outcome = member ? 'allowed' : 'denied';

      cases.push({
        group: 'rpc search_documents',
        name: `${actor.label} searches for ${on}`,
        expected: readOutcome,
        run: async () => {
          const word = `zq${randomBytes(5).toString('hex')}`;
          const id = await documentOf(server, org, `${word} minutes.txt`);
          const result = await actor.client.rpc('search_documents', { search: word });
          const rows = (result.data ?? []) as { id: string }[];
          return judged(
            result,
            rows.some((row) => row.id === id),
          );
        },
      });

      cases.push({
        // Only through search_documents: a REST filter on the texts would read them all.
        group: 'table document_texts',
        name: `${actor.label} reads or filters the text of ${on}`,
        expected: 'denied',
        run: async () => {
          const word = `zq${randomBytes(5).toString('hex')}`;
          const id = await documentOf(server, org, `${word}.txt`);
          await server.db.serverWork().query(
            `select private.record_document_text($1, t.object_version, 'ready', null, $2)
               from public.document_texts t where t.document_id = $1`,
            [id, `The minutes mention ${word} once.`],
          );
          const texts = () => actor.client.from('document_texts');
          const answers = await Promise.all([
            texts().select('content').eq('document_id', id),
            texts().select('document_id').ilike('content', `%${word}%`),
            texts().select('document_id').textSearch('search_vector', word),
          ]);
          const failed = answers.find((a) => a.error && a.status !== 401 && a.status !== 403);
          if (failed) return `error: ${failed.error!.message}`;
          const seen = answers.some((a) => ((a.data ?? []) as unknown[]).length > 0);
          return seen ? 'allowed' : 'denied';
        },
      });

      cases.push({
        group: 'rpc find_duplicate_documents',
        name: `${actor.label} looks for a duplicate of ${on}`,
        expected: readOutcome,
        run: async () => {
          const name = `copy-${randomBytes(5).toString('hex')}.txt`;
          const id = await documentOf(server, org, name);
          const { rows } = await server.db
            .serverWork()
            .query<{ hash: string }>(
              `select content_sha256 as hash from public.documents where id = $1`,
              [id],
            );
          const result = await actor.client.rpc('find_duplicate_documents', {
            sha256: rows[0]!.hash,
          });
          const found = ((result.data ?? []) as { id: string }[]).some((row) => row.id === id);
          return judged(result, found);
        },
      });

      const bulk: [string, Record<string, unknown>, (id: string) => Promise<boolean>][] = [
        [
          'set_documents_category',
          { new_category: 'Legal' },
          async (id) => (await documentRow(server, id))?.category === 'Legal',
        ],
        [
          'set_documents_expiry',
          { new_expiry_date: '2031-01-01' },
          async (id) => (await documentRow(server, id))?.expiry_date === '2031-01-01',
        ],
        [
          'add_documents_tags',
          { tags_to_add: ['added'] },
          async (id) => (await documentRow(server, id))?.tags.includes('added') === true,
        ],
        [
          'remove_documents_tags',
          { tags_to_remove: ['keep'] },
          async (id) => (await documentRow(server, id))?.tags.includes('keep') === false,
        ],
        // Delete moves the documents to the trash (trash-cases.ts: what happens there).
        ['delete_documents', {}, async (id) => (await documentRow(server, id))?.deleted_at != null],
      ];
      for (const [fn, args, changed] of bulk) {
        cases.push({
          group: `rpc ${fn}`,
          name: `${actor.label} calls ${fn} on ${on}`,
          expected: refused,
          run: async () => {
            const id = await documentOf(server, org, `bulk-${randomBytes(4).toString('hex')}.txt`);
            const result = await actor.client.rpc(fn, { document_ids: [id], ...args });
            return judged(result, await changed(id));
          },
        });
      }
    }
  }
  return cases;
}
