import pg from 'pg';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocument, textStateOf } from '../support/documents.ts';
import { scannedPdf, textPdf } from '../support/sample-files.ts';
import { nodeClient } from '../support/server.ts';
import { PASSWORD, uniqueEmail, unwrap, type Person } from '../security/world.ts';
import { authRequestFrom, jwtPayload } from '../backend/auth-helpers.ts';
import { SIGN_IN_SIGN_UPS, kill, startCluster, type Cluster } from './cluster.ts';

// Issue 26, item 4: Steward on several processes, proven for real. Two API processes and a
// worker (real `node server/index.ts` processes) share PostgreSQL and an S3 bucket (s3rver)
// behind Debian's haproxy; everything below goes through the balancer with supabase-js, as
// the app does, and processes are killed with SIGKILL as a crash would. `npm run test:cluster`.

let cluster: Cluster;
let db: pg.Client;

beforeAll(async () => {
  cluster = await startCluster();
  db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db?.end();
  await cluster?.close();
});

const client = (url = cluster.url) => nodeClient(url, cluster.keys.anonKey);

const RATE_LIMITED = { code: 'over_request_rate_limit', message: 'Request rate limit reached' };

async function signUp(
  label: string,
  url = cluster.url,
  email = uniqueEmail(label),
): Promise<Person> {
  const person = client(url);
  const { data, error } = await person.auth.signUp({ email, password: PASSWORD });
  if (error || !data.user) throw new Error(`sign-up of ${email}: ${error?.message}`);
  return { client: person, userId: data.user.id, email };
}

interface Church {
  id: string;
  master: Person;
}

async function church(name: string): Promise<Church> {
  const master = await signUp('master');
  const row = unwrap(
    await master.client.rpc('create_organization', { name }).single<{ id: string }>(),
    'create_organization',
  );
  return { id: row.id, master };
}

async function accessToken(person: Person): Promise<string> {
  const { data } = await person.client.auth.getSession();
  return data.session!.access_token;
}

/** A resumable upload through the balancer in `chunkSize` pieces, as the app's tus-js-client. */
async function resumableUpload(person: Person, objectName: string, bytes: Buffer) {
  const token = await accessToken(person);
  await new Promise<void>((resolve, reject) => {
    new tus.Upload(bytes, {
      endpoint: `${cluster.url}/storage/v1/upload/resumable`,
      headers: { apikey: cluster.keys.anonKey, authorization: `Bearer ${token}` },
      retryDelays: [],
      chunkSize: 64 * 1024,
      metadata: { bucketName: 'documents', objectName, contentType: 'application/pdf' },
      onSuccess: () => resolve(),
      onError: reject,
    }).start();
  });
}

async function download(person: Person, filePath: string): Promise<Buffer> {
  const { data, error } = await person.client.storage.from('documents').download(filePath);
  if (error) throw new Error(`download of ${filePath}: ${error.message}`);
  return Buffer.from(await data.arrayBuffer());
}

const search = async (person: Person, words: string) =>
  (
    unwrap(await person.client.rpc('search_documents', { search: words }), 'search') as {
      id: string;
    }[]
  ).map((row) => row.id);

describe('two API processes and a worker behind haproxy', () => {
  let a: Church;
  let b: Church;

  it('runs the main journeys through the balancer', async () => {
    // Sign-up, and an organisation each.
    a = await church('St Anne');
    b = await church('St Brendan');

    // An invitation, accepted by a new member.
    const email = uniqueEmail('invited');
    const invitation = unwrap(
      await a.master.client
        .rpc('invite_user', { email, role: 'user', full_name: 'Invited Member' })
        .single<{ token: string }>(),
      'invite_user',
    );
    const invited = await signUp('invited', cluster.url, email);
    unwrap(await invited.client.rpc('accept_invitation', { token: invitation.token }), 'accept');

    // A small upload, read back by a colleague.
    const small = await uploadDocument(invited, a.id, {
      name: 'Rota.txt',
      bytes: 'Sunday rota: tea after the service',
      contentType: 'text/plain',
    });
    expect((await download(a.master, small.filePath)).toString()).toBe(
      'Sunday rota: tea after the service',
    );

    // A resumable upload in several requests, which the balancer deals out to both processes
    // in turn (round robin, no sticky rule): each continues where the other stopped.
    const big = Buffer.from(await textPdf(['Quinquennial inspection of the bell tower']));
    const padded = Buffer.concat([big, Buffer.alloc(300 * 1024 - big.length, 0x20)]);
    const bigPath = `documents/${a.id}/inspection-${Date.now()}.pdf`;
    await resumableUpload(a.master, bigPath, padded);
    const inspection = unwrap(
      await a.master.client
        .from('documents')
        .insert({
          organization_id: a.id,
          name: 'Inspection.pdf',
          category: 'Other',
          size: padded.length,
          file_path: bigPath,
          status: 'Active',
        })
        .select('id')
        .single<{ id: string }>(),
      'insert the resumable upload',
    );
    expect((await download(a.master, bigPath)).equals(padded)).toBe(true);

    // Search inside a PDF once the worker has read it out of the bucket.
    await expect
      .poll(() => search(invited, 'bell tower inspection'), { timeout: 60_000, interval: 300 })
      .toEqual([inspection.id]);
    expect(await search(b.master, 'bell tower inspection')).toEqual([]);

    // A preview: a signed address of the file, opened through the balancer.
    const signed = unwrap(
      await a.master.client.storage.from('documents').createSignedUrl(small.filePath, 60),
      'signed URL',
    );
    const preview = await fetch(signed.signedUrl);
    expect(preview.status).toBe(200);
    expect(await preview.text()).toBe('Sunday rota: tea after the service');

    // An export, built by the worker into the bucket, downloaded through the API processes.
    const started = unwrap(
      await a.master.client
        .rpc('start_organization_export', { include_versions: false })
        .single<{ id: string }>(),
      'start_organization_export',
    );
    const exportRow = async () =>
      unwrap(
        await a.master.client
          .from('organization_exports')
          .select('status, file_path')
          .eq('id', started.id)
          .single<{ status: string; file_path: string | null }>(),
        'export row',
      );
    await expect
      .poll(async () => (await exportRow()).status, { timeout: 60_000, interval: 300 })
      .toBe('ready');
    const zip = await a.master.client.storage
      .from('exports')
      .download((await exportRow()).file_path!);
    expect(zip.error).toBeNull();
    const bytes = Buffer.from(await zip.data!.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('Inspection.pdf'))).toBe(true);
  }, 120_000);

  it('holds the sign-up rate limit across the two processes, per client behind the balancer', async () => {
    // Raw sign-ups from one client address (127.0.0.9), spread round-robin over both processes:
    // each process counting alone would let twice the allowance through.
    const signUpFrom = (from: string, forwardedFor?: string) =>
      authRequestFrom(
        cluster,
        from,
        '/signup',
        { email: uniqueEmail('limited'), password: PASSWORD },
        forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      );
    const answers: number[] = [];
    for (let i = 0; i <= SIGN_IN_SIGN_UPS; i += 1) {
      const answer = await signUpFrom('127.0.0.9');
      answers.push(answer.status);
      if (answer.status !== 200) expect(answer.body).toMatchObject(RATE_LIMITED);
    }
    expect(answers).toEqual([...Array<number>(SIGN_IN_SIGN_UPS).fill(200), 429]);
    // Naming another client in X-Forwarded-For does not help: haproxy appends the address it
    // saw, and the processes believe the header only that far.
    const forged = await signUpFrom('127.0.0.9', '127.0.0.10');
    expect(forged.status).toBe(429);
    expect(forged.body).toMatchObject(RATE_LIMITED);

    // Another client behind the same balancer has its own allowance: the processes count
    // clients, not the balancer (BALANCER_ADDRESS, every request's peer), and the address
    // haproxy forwarded is the one the new session records.
    const other = await signUpFrom('127.0.0.10');
    expect(other.status).toBe(200);
    const { session_id } = jwtPayload(other.body!.access_token as string);
    const { rows } = await db.query<{ ip: string }>(
      'select host(ip) as ip from auth.sessions where id = $1::uuid',
      [session_id],
    );
    expect(rows).toEqual([{ ip: '127.0.0.10' }]);
    await signUp('unaffected');
  }, 60_000);

  it('loses no acknowledged write when an API process is killed during uploads and reads', async () => {
    /** Runs `step` until it succeeds (a client's retries), at most 20 times. */
    const withRetries = async <T>(step: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await step();
        } catch (error) {
          if (attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    };
    const acknowledged: { church: Church; id: string; filePath: string; content: string }[] = [];
    const crossOrganisation: string[] = [];
    let killed = false;
    const work = async (church: Church, rounds: number) => {
      for (let i = 0; i < rounds; i += 1) {
        const content = `Minutes ${church.id} ${i} ${Math.random()}`;
        const doc = await withRetries(() =>
          uploadDocument(church.master, church.id, {
            name: `Minutes ${i}.txt`,
            bytes: content,
            contentType: 'text/plain',
          }),
        );
        acknowledged.push({ church, ...doc, content });
        const rows = await withRetries(async () =>
          unwrap(
            await church.master.client.from('documents').select('id, organization_id'),
            'list',
          ),
        );
        for (const row of rows as { id: string; organization_id: string }[]) {
          if (row.organization_id !== church.id) crossOrganisation.push(row.id);
        }
        const read = await withRetries(() => download(church.master, doc.filePath));
        expect(read.toString()).toBe(content);
      }
    };
    const killer = (async () => {
      // Once writes are under way on both processes.
      while (acknowledged.length < 6) await new Promise((resolve) => setTimeout(resolve, 20));
      await kill(cluster.apis[0]!);
      killed = true;
    })();
    await Promise.all([work(a, 25), work(b, 25), killer]);
    expect(killed).toBe(true);
    expect(crossOrganisation).toEqual([]);

    // Every acknowledged write is there, read through the process left.
    for (const doc of acknowledged) {
      const row = unwrap(
        await doc.church.master.client
          .from('documents')
          .select('organization_id, file_path')
          .eq('id', doc.id)
          .single(),
        'acknowledged row',
      );
      expect(row).toEqual({ organization_id: doc.church.id, file_path: doc.filePath });
      expect((await download(doc.church.master, doc.filePath)).toString()).toBe(doc.content);
    }
    // And neither church sees the other's.
    const ofB = acknowledged.filter((doc) => doc.church === b).map((doc) => doc.id);
    const { data: seenByA } = await a.master.client.from('documents').select('id').in('id', ofB);
    expect(seenByA).toEqual([]);

    // The killed process comes back and serves again.
    await cluster.restartApi(0);
  }, 120_000);

  it('finishes a job whose worker died holding it, in another worker', async () => {
    // Eight scanned pages: seconds of OCR, so the kill comes while the job is held.
    const scan = await uploadDocument(a.master, a.id, {
      name: 'Camp insurance.pdf',
      bytes: await scannedPdf(8),
      contentType: 'application/pdf',
    });
    const jobOf = async () =>
      (
        await db.query<{ id: string; locked_by: string | null; finished: boolean }>(
          `select id::text, locked_by, finished_at is not null as finished from private.jobs
            where kind = 'document.extract-text' and payload ->> 'document_id' = $1`,
          [scan.id],
        )
      ).rows[0];
    await expect
      .poll(async () => (await jobOf())?.locked_by ?? null, { timeout: 30_000, interval: 20 })
      .not.toBeNull();
    await kill(cluster.worker);
    const held = await jobOf();
    expect(held).toMatchObject({ finished: false });
    expect(await textStateOf(a.master, scan.id)).not.toMatchObject({ state: 'ready' });

    // The dead worker's lease would end within minutes; the test lets that time pass.
    await db.query(`update private.jobs set locked_until = now() where id = $1`, [held!.id]);
    await cluster.startWorker();
    await expect
      .poll(async () => (await textStateOf(a.master, scan.id))?.state, {
        timeout: 90_000,
        interval: 500,
      })
      .toBe('ready');
    expect(await search(a.master, 'lakeside')).toContain(scan.id);
  }, 120_000);
});
