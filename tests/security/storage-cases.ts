/**
 * Every bucket (documents, branding, and the exports and imports of issue 15) × upload / resumable upload (TUS) / download / list / update / remove / sign /
 * signed upload × every actor × both
 * organisations' folders. Reaching into the other organisation's folder is exactly "guessing
 * its paths": the cases name real objects there. The documents cases use files no document
 * holds (an upload about to become one); the files a document, an earlier version or a trashed
 * document holds are refused to everyone through the API (issue 22, R7).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as tus from 'tus-js-client';
import type { TestServer } from '../support/server.ts';
import { standing, type OrgKey, type OrgWorld, type World } from './actors.ts';
import { admits, allowedIf, judgeWrite, type Case, type Outcome, type Rule } from './cases.ts';

type StorageOperation =
  | 'upload'
  | 'resumable-upload'
  | 'download'
  | 'list'
  | 'update'
  | 'remove'
  | 'sign'
  | 'signed-upload';

interface BucketSpec {
  bucket: 'documents' | 'branding' | 'exports' | 'imports';
  rules: Record<StorageOperation, Rule>;
  contentType: string;
  /** The folder of an organisation (what `list` is given). */
  folder(org: OrgWorld): string;
  /** A fresh object name for the case (the branding logo has only one). */
  objectName(org: OrgWorld): string;
  content(label: string): string;
}

const BUCKETS: BucketSpec[] = [
  {
    bucket: 'documents',
    rules: {
      upload: 'member',
      'resumable-upload': 'member',
      download: 'member',
      list: 'member',
      update: 'member',
      remove: 'member',
      sign: 'member',
      'signed-upload': 'member',
    },
    contentType: 'text/plain',
    folder: (org) => `documents/${org.organisation.id}`,
    objectName: (org) =>
      `documents/${org.organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.txt`,
    content: (label) => `document content ${label}`,
  },
  {
    bucket: 'branding',
    rules: {
      upload: 'admin',
      'resumable-upload': 'admin',
      download: 'member',
      list: 'member',
      update: 'admin',
      remove: 'admin',
      sign: 'member',
      'signed-upload': 'admin',
    },
    contentType: 'image/svg+xml',
    folder: (org) => org.organisation.id,
    objectName: (org) => `${org.organisation.id}/logo.svg`,
    content: (label) => `<svg xmlns="http://www.w3.org/2000/svg"><title>${label}</title></svg>`,
  },
  {
    // An image for the server to convert into the logo (issue 24): admins upload it.
    bucket: 'branding',
    rules: {
      upload: 'admin',
      'resumable-upload': 'admin',
      download: 'member',
      list: 'member',
      update: 'admin',
      remove: 'admin',
      sign: 'member',
      'signed-upload': 'admin',
    },
    contentType: 'image/png',
    folder: (org) => org.organisation.id,
    objectName: (org) => `${org.organisation.id}/logo-source`,
    content: (label) => `png ${label}`,
  },
  {
    // The logo the server made from it: nobody writes it but the server; admins remove it.
    bucket: 'branding',
    rules: {
      upload: 'nobody',
      'resumable-upload': 'nobody',
      download: 'member',
      list: 'member',
      update: 'nobody',
      remove: 'admin',
      sign: 'member',
      'signed-upload': 'nobody',
    },
    contentType: 'image/png',
    folder: (org) => org.organisation.id,
    objectName: (org) => `${org.organisation.id}/logo.png`,
    content: (label) => `png ${label}`,
  },
  {
    // Organisation exports: written by the server's job only, read by the organisation's admins.
    bucket: 'exports',
    rules: {
      upload: 'nobody',
      'resumable-upload': 'nobody',
      download: 'admin',
      list: 'admin',
      update: 'nobody',
      remove: 'nobody',
      sign: 'admin',
      'signed-upload': 'nobody',
    },
    contentType: 'application/zip',
    folder: (org) => org.organisation.id,
    objectName: (org) => `${org.organisation.id}/${randomUUID()}.zip`,
    content: (label) => `export ${label}`,
  },
  {
    // ZIPs to import: admins upload them into their organisation's folder; the job removes them.
    bucket: 'imports',
    rules: {
      upload: 'admin',
      'resumable-upload': 'admin',
      download: 'admin',
      list: 'admin',
      update: 'nobody',
      remove: 'nobody',
      sign: 'admin',
      'signed-upload': 'admin',
    },
    contentType: 'application/zip',
    folder: (org) => org.organisation.id,
    objectName: (org) =>
      `${org.organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.zip`,
    content: (label) => `import ${label}`,
  },
];

async function stored(server: TestServer, bucket: string, name: string): Promise<string | null> {
  const { data, error } = await server.service().storage.from(bucket).download(name);
  return error || !data ? null : data.text();
}

async function put(server: TestServer, spec: BucketSpec, name: string, content: string) {
  const { error } = await server
    .service()
    .storage.from(spec.bucket)
    .upload(name, content, { contentType: spec.contentType, upsert: true });
  if (error) throw new Error(`storage fixture ${spec.bucket}/${name}: ${error.message}`);
}

/** Uploads through Storage's TUS endpoint with tus-js-client, as the actor; the error, or null. */
async function uploadResumably(
  server: TestServer,
  client: SupabaseClient,
  spec: BucketSpec,
  name: string,
  content: string,
): Promise<{ message: string } | null> {
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token ?? server.keys.anonKey;
  return new Promise((resolve) => {
    new tus.Upload(Buffer.from(content), {
      endpoint: `${server.url}/storage/v1/upload/resumable`,
      headers: { apikey: server.keys.anonKey, authorization: `Bearer ${token}` },
      retryDelays: [],
      metadata: { bucketName: spec.bucket, objectName: name, contentType: spec.contentType },
      onSuccess: () => resolve(null),
      onError: (error) => resolve({ message: error.message }),
    }).start();
  });
}

async function attempt(
  server: TestServer,
  spec: BucketSpec,
  operation: StorageOperation,
  client: SupabaseClient,
  org: OrgWorld,
  readFixture: () => Promise<string>,
): Promise<Outcome> {
  const storage = client.storage.from(spec.bucket);
  let name = spec.objectName(org);
  const original = spec.content('fixture');

  // A name every case gets (the logo's) may be taken by an earlier case: clear it before an
  // upload, as a fresh organisation's would be. A name new to the case (a time and a random
  // part, a UUID) has nothing to clear: those removals were 6 % of the part's requests.
  const nameReused = spec.objectName(org) === name;
  const clear = async () => {
    if (nameReused) await server.service().storage.from(spec.bucket).remove([name]);
  };

  if (operation === 'upload') {
    await clear();
    const content = spec.content('uploaded');
    const { error } = await storage.upload(name, content, { contentType: spec.contentType });
    return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
  }

  if (operation === 'resumable-upload') {
    await clear();
    const content = spec.content('resumed');
    const error = await uploadResumably(server, client, spec, name, content);
    return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
  }

  if (operation === 'signed-upload') {
    // The actor makes the link; whoever holds it uploads, as the actor.
    await clear();
    const content = spec.content('through a link');
    const link = await storage.createSignedUploadUrl(name);
    const { error } = link.data
      ? await server
          .anon()
          .storage.from(spec.bucket)
          .uploadToSignedUrl(name, link.data.token, content, { contentType: spec.contentType })
      : link;
    return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
  }

  if (operation === 'download' || operation === 'list' || operation === 'sign') {
    // Reading changes nothing: one object per bucket and organisation is enough for these, as
    // one row per table is for a select (table-cases.ts), where its name is its own. A logo's
    // name is every case's, and an update or removal case changes what is there: put afresh.
    if (nameReused) await put(server, spec, name, original);
    else name = await readFixture();
  } else {
    await put(server, spec, name, original);
  }
  const fileName = name.split('/').pop()!;
  switch (operation) {
    case 'download': {
      const { data, error } = await storage.download(name);
      return allowedIf(!error && (await data!.text()) === original);
    }
    case 'list': {
      const { data, error } = await storage.list(spec.folder(org));
      return allowedIf(!error && (data ?? []).some((entry) => entry.name === fileName));
    }
    case 'update': {
      const content = spec.content('replaced');
      const { error } = await storage.update(name, content, { contentType: spec.contentType });
      return judgeWrite(error, (await stored(server, spec.bucket, name)) === content);
    }
    case 'remove': {
      const { error } = await storage.remove([name]);
      return judgeWrite(error, (await stored(server, spec.bucket, name)) === null);
    }
    case 'sign': {
      const { data, error } = await storage.createSignedUrl(name, 60);
      if (error || !data?.signedUrl) return 'denied';
      const response = await fetch(data.signedUrl);
      return allowedIf(response.ok && (await response.text()) === original);
    }
  }
}

/** The files Steward keeps (issue 22, R7): a document's, an earlier version's, a trashed one's. */
type HeldFile = 'current file' | 'earlier version' | 'trashed document';
type HeldOperation = 'upsert' | 'remove' | 'move';

/** A stored file of `org` that a document, version or trashed document holds; its name. */
async function heldFile(server: TestServer, org: OrgWorld, kind: HeldFile): Promise<string> {
  const documents = BUCKETS[0]!;
  const name = documents.objectName(org);
  await put(server, documents, name, documents.content('fixture'));
  const organizationId = org.organisation.id;
  if (kind === 'earlier version') {
    const current = documents.objectName(org);
    await put(server, documents, current, documents.content('current'));
    const { rows } = await server.db.serverWork().query<{ id: string }>(
      `insert into public.documents (organization_id, name, category, file_path)
       values ($1, 'held.txt', 'HR', $2) returning id`,
      [organizationId, current],
    );
    await server.db.serverWork().query(
      `insert into public.document_versions (document_id, organization_id, version_number,
         change, file_path, size, name, uploaded_at)
       values ($1, $2, 1, 'content_edit', $3, 0, 'held.txt', now())`,
      [rows[0]!.id, organizationId, name],
    );
  } else {
    await server.db.serverWork().query(
      `insert into public.documents (organization_id, name, category, file_path, deleted_at)
       values ($1, 'held.txt', 'HR', $2, $3)`,
      [organizationId, name, kind === 'trashed document' ? new Date().toISOString() : null],
    );
  }
  return name;
}

/** Tries to change or take a held file's bytes through the storage API. */
async function attemptOnHeld(
  server: TestServer,
  operation: HeldOperation,
  client: SupabaseClient,
  org: OrgWorld,
  kind: HeldFile,
): Promise<Outcome> {
  const documents = BUCKETS[0]!;
  const name = await heldFile(server, org, kind);
  const original = documents.content('fixture');
  const storage = client.storage.from('documents');
  let error: { message: string } | null;
  if (operation === 'upsert') {
    ({ error } = await storage.upload(name, documents.content('forged'), {
      upsert: true,
      contentType: documents.contentType,
    }));
  } else if (operation === 'remove') {
    const removed = await storage.remove([name]);
    error = removed.error ?? (removed.data?.length ? null : { message: 'nothing removed' });
  } else {
    ({ error } = await storage.move(name, documents.objectName(org)));
  }
  return judgeWrite(error, (await stored(server, 'documents', name)) !== original);
}

/** Files of the documents bucket that nobody reads, though their rows are there (2026112900200). */
type WithheldFile = 'purged file' | 'file of an unfinished import';

/**
 * A file of `org`'s documents bucket that nobody reads: one a purge on a hosted project left
 * to Storage's removal (its name in `private.document_files_leaving`), or one a hosted
 * project's import wrote before the import is done (`import-{import}-…`). Its name.
 */
async function withheldFile(
  server: TestServer,
  org: OrgWorld,
  kind: WithheldFile,
): Promise<string> {
  const documents = BUCKETS[0]!;
  const name =
    kind === 'purged file'
      ? documents.objectName(org)
      : `documents/${org.organisation.id}/import-${randomUUID()}-${randomUUID()}`;
  await put(server, documents, name, documents.content('withheld'));
  if (kind === 'purged file') {
    await server.db
      .serverWork()
      .query(`insert into private.document_files_leaving (name, organization_id) values ($1, $2)`, [
        name,
        org.organisation.id,
      ]);
  }
  return name;
}

/** Tries to read a withheld file's bytes by download or through a signed URL. */
async function attemptOnWithheld(
  server: TestServer,
  operation: 'download' | 'sign',
  client: SupabaseClient,
  org: OrgWorld,
  kind: WithheldFile,
): Promise<Outcome> {
  const name = await withheldFile(server, org, kind);
  const storage = client.storage.from('documents');
  if (operation === 'download') {
    const { data, error } = await storage.download(name);
    return allowedIf(!error && (await data!.text()) === BUCKETS[0]!.content('withheld'));
  }
  const { data, error } = await storage.createSignedUrl(name, 60);
  if (error || !data?.signedUrl) return 'denied';
  const response = await fetch(data.signedUrl);
  return allowedIf(response.ok);
}

/**
 * Writes a file named like a hosted import's (`import-{import}-…`) into `org`'s documents folder,
 * by upload or by moving a file of the actor's own there (2026112906000600): such names are the
 * imports', and a member's file so named would be nobody's to read.
 */
async function attemptImportName(
  server: TestServer,
  operation: 'upload' | 'move',
  client: SupabaseClient,
  org: OrgWorld,
): Promise<Outcome> {
  const documents = BUCKETS[0]!;
  const storage = client.storage.from('documents');
  const name = `documents/${org.organisation.id}/import-${randomUUID()}-${randomUUID()}`;
  let error: { message: string } | null;
  if (operation === 'upload') {
    ({ error } = await storage.upload(name, documents.content('import name'), {
      contentType: documents.contentType,
    }));
  } else {
    const own = documents.objectName(org);
    // The actor's own file where it may upload one; the move is judged, not this upload.
    const uploaded = await storage.upload(own, documents.content('to move'), {
      contentType: documents.contentType,
    });
    error = uploaded.error ?? (await storage.move(own, name)).error;
  }
  return judgeWrite(error, (await stored(server, 'documents', name)) !== null);
}

export function storageCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  for (const spec of BUCKETS) {
    for (const target of ['A', 'B'] as OrgKey[]) {
      const org = world.orgs[target];
      let readable: Promise<string> | undefined;
      const readFixture = () =>
        (readable ??= (async () => {
          const name = spec.objectName(org);
          await put(server, spec, name, spec.content('fixture'));
          return name;
        })());
      for (const operation of [
        'upload',
        'resumable-upload',
        'download',
        'list',
        'update',
        'remove',
        'sign',
        'signed-upload',
      ] as const) {
        for (const actor of world.actors) {
          cases.push({
            group: `storage ${spec.bucket}`,
            name: `${actor.label} ${operation}s in ${spec.bucket} of ${target}`,
            expected: allowedIf(admits(spec.rules[operation], standing(actor, target))),
            run: () => attempt(server, spec, operation, actor.client, org, readFixture),
          });
        }
      }
    }
  }
  // After the cases above: each adds an object to the folder that `list` reads the first page of.
  for (const target of ['A', 'B'] as OrgKey[]) {
    const org = world.orgs[target];
    for (const kind of ['current file', 'earlier version', 'trashed document'] as const) {
      for (const operation of ['upsert', 'remove', 'move'] as const) {
        for (const actor of world.actors) {
          cases.push({
            group: 'storage documents (held files)',
            name: `${actor.label} ${operation}s the file of a ${kind} of ${target}`,
            // Only Steward's own operations change these (the rpc and trash cases).
            expected: 'denied',
            run: () => attemptOnHeld(server, operation, actor.client, org, kind),
          });
        }
      }
    }
  }
  for (const target of ['A', 'B'] as OrgKey[]) {
    const org = world.orgs[target];
    for (const kind of ['purged file', 'file of an unfinished import'] as const) {
      for (const operation of ['download', 'sign'] as const) {
        for (const actor of world.actors) {
          cases.push({
            group: 'storage documents (withheld files)',
            name: `${actor.label} ${operation}s a ${kind} of ${target}`,
            expected: 'denied',
            run: () => attemptOnWithheld(server, operation, actor.client, org, kind),
          });
        }
      }
    }
  }
  for (const target of ['A', 'B'] as OrgKey[]) {
    const org = world.orgs[target];
    for (const operation of ['upload', 'move'] as const) {
      for (const actor of world.actors) {
        cases.push({
          group: 'storage documents (import names)',
          name: `${actor.label} ${operation}s a file named like an import's into documents of ${target}`,
          expected: 'denied',
          run: () => attemptImportName(server, operation, actor.client, org),
        });
      }
    }
  }
  return cases;
}
