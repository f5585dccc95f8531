import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { storageFetch } from './storage-helpers.ts';

// Storage answers where the embedded backend once answered 2xx with something other than
// Supabase Storage's answer (issue 17).

let server: TestServer;
const admin = () => server.service().storage;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  await server.db.serverWork().exec(`
    insert into storage.buckets (id, name, public) values
      ('files', 'files', false), ('list-v2', 'list-v2', false);
  `);
  await admin().from('files').upload('notes/plain.txt', 'plain text');
});
afterAll(async () => {
  await server?.close();
});

describe('storage paths that Storage reserves', () => {
  it('never takes POST /object/list-v2/<bucket> for an upload into a bucket named list-v2', async () => {
    const response = await storageFetch(server, '/object/list-v2/list-v2', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ prefix: '', limit: 10 }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: '404',
      code: 'NotFound',
      error: 'Not Found',
      message: 'Route POST:/storage/v1/object/list-v2/list-v2 not found',
    });
    const { data } = await admin().from('list-v2').list('');
    expect(data).toEqual([]);
  });

  it('answers storage-js listV2 with an error, never a listing of something else', async () => {
    const { data, error } = await admin().from('files').listV2({ prefix: 'notes/' });
    expect(data).toBeNull();
    expect(error).toMatchObject({
      message: 'Route POST:/storage/v1/object/list-v2/files not found',
    });
  });
});

describe('signed URLs with a transform', () => {
  it("refuses the transform with Storage's FeatureNotEnabled, and signs nothing", async () => {
    const { data, error } = await admin()
      .from('files')
      .createSignedUrl('notes/plain.txt', 60, { transform: { width: 10, height: 10 } });
    expect(data).toBeNull();
    expect(error).toMatchObject({
      statusCode: '409',
      message: 'The feature imageTransformation is not enabled for this resource',
    });
    const plain = await admin().from('files').createSignedUrl('notes/plain.txt', 60);
    expect(plain.error).toBeNull();
  });
});

describe('object and bucket details as Storage gives them', () => {
  it('info() gives metadata {} for an object uploaded without any', async () => {
    const { data, error } = await admin().from('files').info('notes/plain.txt');
    expect(error).toBeNull();
    expect(data?.metadata).toEqual({});
  });

  it('getBucket has no type, and emptyBucket answers with Storage’s message', async () => {
    const { data } = await admin().getBucket('files');
    expect(data).not.toHaveProperty('type');
    const emptied = await admin().emptyBucket('files');
    expect(emptied).toEqual({
      data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
      error: null,
    });
  });
});
