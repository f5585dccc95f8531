import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { textPdf } from '../support/sample-files.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// The documents-zip edge function: the selected documents as one ZIP, streamed, read as the
// caller (row-level security decides), each file under its document's name.
describe('documents-zip function', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;

  async function zipOf(who: Person | null, body: unknown): Promise<Response> {
    const token = who
      ? (await who.client.auth.getSession()).data.session!.access_token
      : server.keys.anonKey;
    return fetch(`${server.url}/functions/v1/documents-zip`, {
      method: 'POST',
      headers: {
        apikey: server.keys.anonKey,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Zip Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, church, 'user');
  });
  afterAll(() => server?.close());

  it('packs the selected files under their names, each name once, in the order selected', async () => {
    const pdf = await textPdf(['Safeguarding policy, 2027 edition']);
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'church hall booking ');
    const docs = [
      await uploadDocument(member, church.id, { name: 'Policy.pdf', bytes: pdf }),
      await uploadDocument(member, church.id, { name: 'Notes', bytes: 'no extension in the name' }),
      await uploadDocument(member, church.id, {
        name: 'Policy.pdf',
        bytes: 'same name, other file',
      }),
      await uploadDocument(member, church.id, { name: '../escape/attempt.txt', bytes: big }),
    ];
    const response = await zipOf(member, { documentIds: docs.map((d) => d.id) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="documents.zip"',
    );
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files)).toEqual([
      'Policy.pdf',
      'Notes.bin',
      'Policy (2).pdf',
      '_escape_attempt.txt',
    ]);
    expect(Buffer.from(files['Policy.pdf']!).equals(Buffer.from(pdf))).toBe(true);
    expect(Buffer.from(files['Notes.bin']!).toString()).toBe('no extension in the name');
    expect(Buffer.from(files['Policy (2).pdf']!).toString()).toBe('same name, other file');
    expect(Buffer.from(files['_escape_attempt.txt']!).equals(big)).toBe(true);
  }, 60_000);

  it('names the files it could not read instead of failing the archive', async () => {
    const kept = await uploadDocument(member, church.id, { name: 'Kept.txt', bytes: 'kept' });
    const lost = await uploadDocument(member, church.id, { name: 'Lost.txt', bytes: 'lost' });
    await server.db.serverWork().transaction(async (tx) => {
      await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
      await tx.query(`delete from storage.objects where name = $1`, [lost.filePath]);
    });
    const response = await zipOf(member, { documentIds: [kept.id, lost.id] });
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['Kept.txt', 'MISSING FILES.txt']);
    expect(Buffer.from(files['MISSING FILES.txt']!).toString()).toContain('Lost.txt');
  });

  it("refuses another organisation's document, a stranger and bad requests", async () => {
    const mine = await uploadDocument(member, church.id, { name: 'Mine.txt', bytes: 'mine' });
    const theirs = await uploadDocument(other.master, other.id, { name: 'T.txt', bytes: 'theirs' });
    const mixed = await zipOf(member, { documentIds: [mine.id, theirs.id] });
    expect(mixed.status).toBe(404);
    expect(await mixed.json()).toEqual({ error: 'Some of the selected documents were not found' });

    const anonymous = await zipOf(null, { documentIds: [mine.id] });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: 'Not authenticated' });

    expect((await zipOf(member, { documentIds: [] })).status).toBe(400);
    expect(await (await zipOf(member, { documentIds: ['nope'] })).json()).toEqual({
      error: 'documentIds must be a list of document ids',
    });
    const tooMany = Array.from({ length: 501 }, () => crypto.randomUUID());
    expect(await (await zipOf(member, { documentIds: tooMany })).json()).toEqual({
      error: 'Select between 1 and 500 documents',
    });
  });
});
