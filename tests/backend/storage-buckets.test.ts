import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { storageFetch, storedFiles, testUser, type TestUser } from './storage-helpers.ts';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  user = testUser(server);
});
afterAll(async () => {
  await server?.close();
});

const admin = () => server.service().storage;

describe('storage: the bucket API', () => {
  it('creates, reads, lists and updates buckets with the service role', async () => {
    const created = await admin().createBucket('avatars', {
      public: true,
      fileSizeLimit: '1MB',
      allowedMimeTypes: ['image/png', 'image/*'],
    });
    expect(created).toEqual({ data: { name: 'avatars' }, error: null });

    const { data } = await admin().getBucket('avatars');
    expect(data).toMatchObject({
      id: 'avatars',
      name: 'avatars',
      public: true,
      file_size_limit: 1_000_000,
      allowed_mime_types: ['image/png', 'image/*'],
    });
    // As Storage: one bucket has no `type`; the list has it.
    expect(Object.keys(data!).sort()).toEqual([
      'allowed_mime_types',
      'created_at',
      'file_size_limit',
      'id',
      'name',
      'owner',
      'public',
      'updated_at',
    ]);
    expect((await admin().listBuckets()).data?.[0]?.type).toBe('STANDARD');
    expect(data!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    await admin().createBucket('zeta');
    expect((await admin().listBuckets()).data?.map((bucket) => bucket.id)).toEqual([
      'avatars',
      'zeta',
    ]);
    expect((await admin().listBuckets({ search: 'eta' })).data?.map((bucket) => bucket.id)).toEqual(
      ['zeta'],
    );
    expect(
      (await admin().listBuckets({ sortColumn: 'name', sortOrder: 'desc', limit: 1 })).data?.map(
        (bucket) => bucket.id,
      ),
    ).toEqual(['zeta']);

    const updated = await admin().updateBucket('avatars', { public: false, fileSizeLimit: 2048 });
    expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
    expect((await admin().getBucket('avatars')).data).toMatchObject({
      public: false,
      file_size_limit: 2048,
      allowed_mime_types: ['image/png', 'image/*'],
    });
  });

  it('refuses duplicate and invalid buckets', async () => {
    await admin().createBucket('unique');
    expect((await admin().createBucket('unique')).error).toMatchObject({
      statusCode: '409',
      message: 'The resource already exists',
    });
    for (const name of ['..', '.', 'a/b', ' padded', 'list', 'x'.repeat(101), 'tab\there']) {
      expect((await admin().createBucket(name)).error, name).toMatchObject({
        statusCode: '400',
        message: 'Bucket name invalid',
      });
    }
    expect(
      (await admin().createBucket('huge', { public: false, fileSizeLimit: '1GB' })).error,
    ).toMatchObject({
      statusCode: '413',
    });
    expect(
      (await admin().createBucket('typed', { public: false, allowedMimeTypes: ['not a type'] }))
        .error,
    ).toMatchObject({
      statusCode: '415',
    });
    expect((await admin().getBucket('nope')).error).toMatchObject({
      statusCode: '404',
      message: 'Bucket not found',
    });
    expect((await admin().updateBucket('nope', { public: true })).error).toMatchObject({
      statusCode: '404',
    });
  });

  it('empties and deletes buckets, removing their files', async () => {
    await admin().createBucket('scratch');
    const scratch = server.service().storage.from('scratch');
    await scratch.upload('a.txt', 'a');
    await scratch.upload('dir/b.txt', 'b');
    expect((await storedFiles(server)).length).toBeGreaterThanOrEqual(2);

    expect((await admin().deleteBucket('scratch')).error).toMatchObject({
      statusCode: '409',
      message: 'The bucket you tried to delete is not empty',
    });
    expect((await admin().emptyBucket('scratch')).data).toEqual({
      message: 'Empty bucket has been queued. Completion may take up to an hour.',
    });
    expect((await scratch.list('')).data).toEqual([]);
    expect(await storedFiles(server)).toEqual([]);
    expect((await admin().deleteBucket('scratch')).data).toEqual({
      message: 'Successfully deleted',
    });
    expect((await admin().getBucket('scratch')).error).toMatchObject({ statusCode: '404' });
    expect((await admin().deleteBucket('scratch')).error).toMatchObject({ statusCode: '404' });
  });

  it('leaves bucket management to the service role unless policies allow more', async () => {
    const storage = user.client.storage;
    expect((await storage.createBucket('mine')).error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect((await storage.listBuckets()).data).toEqual([]);
    expect((await storage.getBucket('avatars')).error).toMatchObject({ statusCode: '404' });
    expect((await storage.updateBucket('avatars', { public: true })).error).toMatchObject({
      statusCode: '404',
    });
    expect((await storage.deleteBucket('avatars')).error).toMatchObject({ statusCode: '404' });
    const empty = await storageFetch(server, '/bucket/avatars/empty', {
      method: 'POST',
      token: user.token,
    });
    expect(empty.status).toBe(403);
    expect(await empty.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });

    await server.db.serverWork().exec(`
      create policy "users see public buckets" on storage.buckets
        for select to authenticated using (public);
    `);
    await admin().updateBucket('zeta', { public: true });
    expect((await storage.listBuckets()).data?.map((bucket) => bucket.id)).toEqual(['zeta']);
  });

  it('answers unknown storage routes with a storage error, not the app', async () => {
    const response = await storageFetch(server, '/nothing/here');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: '404', error: 'Not Found' });
  });
});
