import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tus from 'tus-js-client';
import { ManualClock } from '../../server/jobs/clock.ts';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { newFilePath, uploadDocument, uploadFile } from './document-helpers.ts';

// Issue 22, R7 (migration 20261128000301): the files of documents, of their earlier versions
// and of trashed documents change only through Steward's own operations. A member, an admin
// or a master admin who reaches for them through the storage API gets Storage's own refusal
// and changes nothing; files no document holds yet (an upload about to become a document)
// stay theirs to replace or remove.

const RLS = { statusCode: '403', message: 'new row violates row-level security policy' };

describe('the files of documents, versions and the trash', () => {
  let server: TestServer;
  let clock: ManualClock;
  let church: Organisation;
  let user: Person;
  let admin: Person;

  const bucket = (person: Person) => person.client.storage.from('documents');
  const bytesOf = async (name: string) => {
    const { data, error } = await bucket(church.master).download(name);
    return error ? null : data.text();
  };

  /** A document with two earlier versions (v1, v2) and its current file (v3), by `user`. */
  async function documentWithVersions() {
    const document = await uploadDocument(user, church, { name: 'policy.txt', content: 'v1' });
    for (const content of ['v2', 'v3']) {
      unwrap(
        await user.client.rpc('replace_document_file', {
          document_id: document.id,
          file_path: await uploadFile(user, church, content),
          change: 'content_edit',
        }),
        'replace',
      );
    }
    const { rows } = await server.db.serverWork().query<{ current: string; versions: string[] }>(
      `select d.file_path as current,
              array(select v.file_path from public.document_versions v
                    where v.document_id = d.id order by v.version_number) as versions
       from public.documents d where d.id = $1`,
      [document.id],
    );
    return { id: document.id, current: rows[0]!.current, versions: rows[0]!.versions };
  }

  /** DELETE /object/documents/{name} as `person`, as a raw request (storage-js has no call). */
  async function deleteOne(person: Person, name: string) {
    const token = (await person.client.auth.getSession()).data.session!.access_token;
    const { hostname, port } = new URL(server.url);
    return new Promise<{ status: number; body: Record<string, string> }>((resolve, reject) => {
      const request = http.request(
        {
          host: hostname,
          port,
          method: 'DELETE',
          path: `/storage/v1/object/documents/${name}`,
          headers: { authorization: `Bearer ${token}`, apikey: server.keys.anonKey },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  /** A resumable upload with `x-upsert: true` onto `name`; the refusal's body, or null. */
  async function resumableUpsert(person: Person, name: string, content: string) {
    const token = (await person.client.auth.getSession()).data.session!.access_token;
    return new Promise<Record<string, string> | null>((resolve) => {
      new tus.Upload(Buffer.from(content), {
        endpoint: `${server.url}/storage/v1/upload/resumable`,
        headers: {
          apikey: server.keys.anonKey,
          authorization: `Bearer ${token}`,
          'x-upsert': 'true',
        },
        retryDelays: [],
        metadata: { bucketName: 'documents', objectName: name, contentType: 'text/plain' },
        onSuccess: () => resolve(null),
        onError: (error) => {
          const body = (error as tus.DetailedError).originalResponse?.getBody();
          resolve(body ? (JSON.parse(body) as Record<string, string>) : { message: error.message });
        },
      }).start();
    });
  }

  /** Every way the storage API offers to change `name`'s bytes or take them away. */
  async function attacks(person: Person, name: string) {
    const storage = bucket(person);
    const signed = await storage.createSignedUploadUrl(name, { upsert: true });
    return {
      upsert: (await storage.upload(name, 'forged', { upsert: true, contentType: 'text/plain' }))
        .error,
      update: (await storage.update(name, 'forged', { contentType: 'text/plain' })).error,
      copyOver: (
        await person.client.storage
          .from('documents')
          .copy(await uploadFile(person, church, 'forged'), name)
      ).error,
      resumable: await resumableUpsert(person, name, 'forged'),
      signedUpload:
        signed.error ?? (await storage.uploadToSignedUrl(name, signed.data.token, 'forged')).error,
      move: (await storage.move(name, newFilePath(church))).error,
      removeMany: (await storage.remove([name])).data,
      removeOne: await deleteOne(person, name),
    };
  }

  function expectRefused(outcome: Awaited<ReturnType<typeof attacks>>) {
    expect(outcome.upsert).toMatchObject(RLS);
    expect(outcome.update).toMatchObject(RLS);
    expect(outcome.copyOver).toMatchObject({ statusCode: '403' });
    expect(outcome.resumable).toMatchObject(RLS);
    expect(outcome.signedUpload).toMatchObject({ statusCode: '403' });
    // Storage answers a move whose update row-level security refuses as a missing object, a
    // removal of several names with the list of those removed, and of one with "Access denied".
    expect(outcome.move).toMatchObject({ statusCode: '404', message: 'Object not found' });
    expect(outcome.removeMany).toEqual([]);
    expect(outcome.removeOne).toEqual({
      status: 400,
      body: {
        statusCode: '403',
        code: 'AccessDenied',
        error: 'Unauthorized',
        message: 'Access denied',
      },
    });
  }

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    server = await startTestServer({ clock, env: { JOB_POLL_INTERVAL: '1h' } });
    await server.jobs.runDue();
    church = await createOrganisation(server, 'Kept Files Church');
    user = await addMember(server, church, 'user', 'kept-user');
    admin = await addMember(server, church, 'admin', 'kept-admin');
  });
  afterAll(() => server?.close());

  it("keeps a document's current file and its earlier versions from every member's storage calls", async () => {
    const document = await documentWithVersions();
    for (const person of [user, admin, church.master]) {
      for (const [name, content] of [
        [document.current, 'v3'],
        [document.versions[0]!, 'v1'],
        [document.versions[1]!, 'v2'],
      ] as const) {
        expectRefused(await attacks(person, name));
        expect(await bytesOf(name)).toBe(content);
      }
    }
  });

  it('keeps the files of a trashed document and of its versions, so that it comes back whole', async () => {
    const document = await documentWithVersions();
    unwrap(await user.client.rpc('delete_documents', { document_ids: [document.id] }), 'trash');
    for (const person of [user, admin, church.master]) {
      for (const name of [document.current, ...document.versions]) {
        expectRefused(await attacks(person, name));
      }
    }
    unwrap(await user.client.rpc('restore_documents', { document_ids: [document.id] }), 'restore');
    expect(await bytesOf(document.current)).toBe('v3');
    expect(await bytesOf(document.versions[0]!)).toBe('v1');
  });

  it('refuses a second document pointing at a file another document, version or the trash holds', async () => {
    const document = await documentWithVersions();
    const trashed = await uploadDocument(user, church, { name: 'old.txt', content: 'old' });
    unwrap(await user.client.rpc('delete_documents', { document_ids: [trashed.id] }), 'trash');
    for (const file_path of [document.current, document.versions[0]!, trashed.file_path]) {
      const { error } = await user.client.from('documents').insert({
        organization_id: church.id,
        name: 'copy.txt',
        category: 'Other',
        size: 2,
        file_path,
      });
      expect(error).toMatchObject({
        code: '23505',
        message: 'This file belongs to another document',
      });
    }
    const { count } = await church.master.client
      .from('documents')
      .select('id', { count: 'exact', head: true })
      .eq('name', 'copy.txt');
    expect(count).toBe(0);
  });

  it('refuses a new upload under a name a document holds whose file is missing', async () => {
    const document = await uploadDocument(user, church, { name: 'lost.txt', content: 'lost' });
    await server.db.serverWork().transaction(async (tx) => {
      await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
      await tx.query(`delete from storage.objects where bucket_id = 'documents' and name = $1`, [
        document.file_path,
      ]);
    });
    const planted = await bucket(user).upload(document.file_path, 'planted', {
      contentType: 'text/plain',
    });
    expect(planted.error).toMatchObject(RLS);
    const moved = await bucket(user).move(
      await uploadFile(user, church, 'planted'),
      document.file_path,
    );
    expect(moved.error).toMatchObject(RLS);
    expect(await bytesOf(document.file_path)).toBeNull();
  });

  it("still lets Steward's own operations change and remove files, and members tidy their own uploads", async () => {
    // An upload no document holds yet: replaced, moved and removed as before (the app removes
    // its upload when the row that would hold it cannot be written).
    const loose = await uploadFile(user, church, 'draft');
    expect(
      (await bucket(user).update(loose, 'draft 2', { contentType: 'text/plain' })).error,
    ).toBeNull();
    const moved = newFilePath(church);
    expect((await bucket(user).move(loose, moved)).error).toBeNull();
    expect((await bucket(user).remove([moved])).data).toHaveLength(1);

    // Renew, restore a version (from a copy), and delete for ever by an admin.
    const document = await documentWithVersions();
    const renewal = await uploadFile(user, church, 'renewed');
    unwrap(
      await user.client.rpc('renew_document', {
        document_id: document.id,
        file_path: renewal,
        expiry_date: '2030-01-01',
      }),
      'renew',
    );
    const copy = newFilePath(church);
    unwrap(await bucket(user).copy(document.versions[0]!, copy), 'copy');
    const versions = unwrap(
      await user.client
        .from('document_versions')
        .select('id, version_number')
        .eq('document_id', document.id)
        .order('version_number'),
      'versions',
    ) as { id: string }[];
    unwrap(
      await user.client.rpc('restore_document_version', {
        version_id: versions[0]!.id,
        file_path: copy,
      }),
      'restore version',
    );
    expect(await bytesOf(copy)).toBe('v1');
    expectRefused(await attacks(user, copy));

    unwrap(await user.client.rpc('delete_documents', { document_ids: [document.id] }), 'trash');
    unwrap(await admin.client.rpc('purge_documents', { document_ids: [document.id] }), 'purge');
    for (const name of [copy, renewal, document.current, ...document.versions]) {
      expect(await bytesOf(name)).toBeNull();
    }
  });
});
