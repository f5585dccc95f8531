/**
 * The trash and the versions (issue 15) × every actor × both organisations: `list_trash`,
 * `restore_documents`, `purge_documents`, `empty_trash`, `replace_document_file` and
 * `restore_document_version`. Members of the organisation see and restore its trashed
 * documents; its admins delete them for ever; anyone else sees, restores and deletes nothing,
 * and the anonymous role may not call the functions at all. Each case trashes its own document
 * with the server's connection and checks the effect there.
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

async function trashedDocument(server: TestServer, org: OrgWorld): Promise<string> {
  const { rows } = await server.db.serverWork().query<{ id: string }>(
    `insert into public.documents (organization_id, name, category, file_path, deleted_at)
     values ($1, $2, 'HR', $3, now()) returning id`,
    [
      org.organisation.id,
      `trashed-${randomBytes(4).toString('hex')}.txt`,
      `documents/${org.organisation.id}/${randomBytes(6).toString('hex')}.txt`,
    ],
  );
  return rows[0]!.id;
}

async function stateOf(server: TestServer, id: string): Promise<'trash' | 'in use' | 'gone'> {
  const { rows } = await server.db
    .serverWork()
    .query<{ trashed: boolean }>(
      `select deleted_at is not null as trashed from public.documents where id = $1`,
      [id],
    );
  if (rows.length === 0) return 'gone';
  return rows[0]!.trashed ? 'trash' : 'in use';
}

const ADMINS_ONLY: Outcome = 'error: Only admins can delete documents for ever';
const NOT_IN_TRASH: Outcome = 'error: Some of the selected documents were not found in the trash';

/** A stored file of the organisation, uploaded with the service role; returns its name. */
async function storedFile(server: TestServer, org: OrgWorld, content: string): Promise<string> {
  const name = `documents/${org.organisation.id}/${randomBytes(6).toString('hex')}.txt`;
  const { error } = await server
    .service()
    .storage.from('documents')
    .upload(name, new TextEncoder().encode(content), { contentType: 'text/plain' });
  if (error) throw new Error(`upload: ${error.message}`);
  return name;
}

/** A document in use with a stored file and one earlier version (its file stored too). */
async function versionedDocument(server: TestServer, org: OrgWorld) {
  const current = await storedFile(server, org, 'current');
  const earlier = await storedFile(server, org, 'earlier');
  const { rows } = await server.db.serverWork().query<{ id: string }>(
    `insert into public.documents (organization_id, name, category, file_path, size)
     values ($1, 'versioned.txt', 'HR', $2, 7) returning id`,
    [org.organisation.id, current],
  );
  const documentId = rows[0]!.id;
  const version = await server.db.serverWork().query<{ id: string }>(
    `insert into public.document_versions (document_id, organization_id, version_number, change,
       file_path, size, name, uploaded_at)
     values ($1, $2, 1, 'content_edit', $3, 7, 'versioned.txt', now()) returning id`,
    [documentId, org.organisation.id, earlier],
  );
  return { documentId, versionId: version.rows[0]!.id };
}

const currentFile = async (server: TestServer, id: string) =>
  (
    await server.db
      .serverWork()
      .query<{ file_path: string }>(`select file_path from public.documents where id = $1`, [id])
  ).rows[0]?.file_path;

export function trashCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  for (const actor of world.actors) {
    for (const org of Object.values(world.orgs)) {
      const on = `a trashed document of ${org.key}`;
      const who = standing(actor, org.key);
      const member = admits('member', who);
      const admin = admits('admin', who);
      const noOrganisation = actor.kind === 'no_organization' || actor.kind === 'deactivated';

      cases.push({
        group: 'rpc list_trash',
        name: `${actor.label} lists the trash, looking for ${on}`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : noOrganisation
              ? 'error: No organization found'
              : member
                ? 'allowed'
                : 'denied',
        run: async () => {
          const id = await trashedDocument(server, org);
          const result = await actor.client.rpc('list_trash');
          const rows = (result.data ?? []) as { id: string }[];
          return judged(
            result,
            rows.some((row) => row.id === id),
          );
        },
      });

      cases.push({
        group: 'rpc restore_documents',
        name: `${actor.label} restores ${on}`,
        expected: actor.kind === 'anonymous' ? 'denied' : member ? 'allowed' : NOT_IN_TRASH,
        run: async () => {
          const id = await trashedDocument(server, org);
          const result = await actor.client.rpc('restore_documents', { document_ids: [id] });
          return judged(result, (await stateOf(server, id)) === 'in use');
        },
      });

      cases.push({
        group: 'rpc purge_documents',
        name: `${actor.label} deletes ${on} for ever`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : admin
              ? 'allowed'
              : actor.kind === 'user'
                ? ADMINS_ONLY
                : NOT_IN_TRASH,
        run: async () => {
          const id = await trashedDocument(server, org);
          const result = await actor.client.rpc('purge_documents', { document_ids: [id] });
          return judged(result, (await stateOf(server, id)) === 'gone');
        },
      });

      cases.push({
        group: 'rpc empty_trash',
        name: `${actor.label} empties the trash holding ${on}`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : noOrganisation
              ? 'error: No organization found'
              : actor.kind === 'user'
                ? ADMINS_ONLY
                : admin
                  ? 'allowed'
                  : // An admin of the other organisation empties their own trash only.
                    'denied',
        run: async () => {
          const id = await trashedDocument(server, org);
          const result = await actor.client.rpc('empty_trash');
          return judged(result, (await stateOf(server, id)) === 'gone');
        },
      });

      cases.push({
        group: 'rpc replace_document_file',
        name: `${actor.label} gives a document of ${org.key} a new file`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : noOrganisation
              ? 'error: No organization found'
              : member
                ? 'allowed'
                : 'error: Document not found',
        run: async () => {
          const { documentId } = await versionedDocument(server, org);
          const upload = await storedFile(server, org, 'replacement');
          const result = await actor.client.rpc('replace_document_file', {
            document_id: documentId,
            file_path: upload,
            change: 'content_edit',
          });
          return judged(result, (await currentFile(server, documentId)) === upload);
        },
      });

      cases.push({
        group: 'rpc restore_document_version',
        name: `${actor.label} restores a version of a document of ${org.key}`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : noOrganisation
              ? 'error: No organization found'
              : member
                ? 'allowed'
                : 'error: Version not found',
        run: async () => {
          const { documentId, versionId } = await versionedDocument(server, org);
          const copy = await storedFile(server, org, 'earlier');
          const result = await actor.client.rpc('restore_document_version', {
            version_id: versionId,
            file_path: copy,
          });
          return judged(result, (await currentFile(server, documentId)) === copy);
        },
      });

      cases.push({
        group: 'rpc restore_document_version',
        name: `${actor.label} restores a version of a document of ${org.key} from other bytes`,
        expected:
          actor.kind === 'anonymous'
            ? 'denied'
            : noOrganisation
              ? 'error: No organization found'
              : member
                ? 'error: The new file must be a copy of the version'
                : 'error: Version not found',
        run: async () => {
          const { documentId, versionId } = await versionedDocument(server, org);
          // As many bytes as the version's file ('earlier'), not the same ones.
          const forged = await storedFile(server, org, 'EARLIER');
          const result = await actor.client.rpc('restore_document_version', {
            version_id: versionId,
            file_path: forged,
          });
          return judged(result, (await currentFile(server, documentId)) === forged);
        },
      });
    }
  }
  return cases;
}
