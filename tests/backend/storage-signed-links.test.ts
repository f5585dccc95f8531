import { randomBytes } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../server/http/jwt.ts';
import { urlSigningKey } from '../../server/storage/signed-url.ts';
import {
  addMember,
  createOrganisation,
  restoreProfile,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { jwtPayload } from './auth-helpers.ts';
import { storageFetch, type StorageErrorBody } from './storage-helpers.ts';
import { enrol, signIn } from './totp-helpers.ts';

// Finding F4 of issue 11: a signed link must follow its signer. Links are made by real members
// of a real organisation (the `documents` bucket and its policies), and used without a token,
// as anyone holding the link would.

let server: TestServer;
let church: Organisation;
let other: Organisation;

beforeAll(async () => {
  server = await startTestServer();
  church = await createOrganisation(server, 'Signed Links Church');
  other = await createOrganisation(server, 'Other Church');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const documents = (person: Person) => person.client.storage.from('documents');
const newPath = (organisation: Organisation) =>
  `documents/${organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.txt`;

async function storedText(path: string): Promise<string | null> {
  const { data, error } = await server.service().storage.from('documents').download(path);
  return error ? null : data.text();
}

async function upload(person: Person, path: string, text: string): Promise<void> {
  const { error } = await documents(person).upload(path, text, {
    contentType: 'text/plain;charset=utf-8',
  });
  if (error) throw new Error(`upload ${path}: ${error.message}`);
}

/** A member with a file, a signed download link for it and a signed upload link that may replace it. */
async function memberWithLinks(label: string) {
  const member = await addMember(server, church, 'user', label);
  const path = newPath(church);
  await upload(member, path, 'original');
  const download = unwrap(await documents(member).createSignedUrl(path, 3600), 'sign');
  const uploadLink = unwrap(
    await documents(member).createSignedUploadUrl(path, { upsert: true }),
    'sign upload',
  );
  // Both work while the member may read and write the file.
  const before = await fetch(download.signedUrl);
  expect(await before.text()).toBe('original');
  return { member, path, downloadUrl: download.signedUrl, uploadToken: uploadLink.token };
}

/** What the links answer once their signer may no longer use the file. */
async function expectLinksDead(links: Awaited<ReturnType<typeof memberWithLinks>>) {
  const download = await fetch(links.downloadUrl);
  expect(download.status).toBe(400);
  expect(await download.json()).toEqual({
    statusCode: '404',
    code: 'NoSuchKey',
    error: 'not_found',
    message: 'Object not found',
  } satisfies StorageErrorBody);

  const replaced = await server
    .anon()
    .storage.from('documents')
    .uploadToSignedUrl(links.path, links.uploadToken, 'overwritten', {
      contentType: 'text/plain;charset=utf-8',
      upsert: true,
    });
  expect(replaced.error).toMatchObject({
    statusCode: '403',
    message: 'new row violates row-level security policy',
  });
  expect(await storedText(links.path)).toBe('original');
}

describe('signed links follow their signer (F4)', () => {
  it('stop working as soon as the signer is deactivated, and work again after reactivation', async () => {
    const links = await memberWithLinks('deactivated-signer');
    unwrap(
      await church.master.client.rpc('deactivate_user', { user_id: links.member.userId }),
      'deactivate',
    );
    await expectLinksDead(links);

    unwrap(
      await church.master.client.rpc('reactivate_user', { user_id: links.member.userId }),
      'reactivate',
    );
    expect(await (await fetch(links.downloadUrl)).text()).toBe('original');
  });

  it('stop working when the signer no longer belongs to the organisation', async () => {
    const links = await memberWithLinks('moved-signer');
    await restoreProfile(server, links.member.userId, { organization_id: other.id });
    await expectLinksDead(links);
  });

  it('refuse a link made before links named their signer, whatever its expiry', async () => {
    const member = await addMember(server, church, 'user', 'old-link');
    const path = newPath(church);
    await upload(member, path, 'kept private');
    const now = Math.floor(Date.now() / 1000);
    // The claims the server used to sign: no signer, ten years.
    const oldToken = signJwt(
      { url: `documents/${path}`, scope: 'download', iat: now, exp: now + 10 * 365 * 86_400 },
      urlSigningKey(server.keys.jwtSecret),
    );
    const response = await storageFetch(
      server,
      `/object/sign/documents/${path}?token=${oldToken}`,
      {
        token: null,
      },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      statusCode: '400',
      code: 'InvalidSignature',
      message: 'Token does not name its signer',
    });
  });
});

describe('signed links made in a session that proved a second factor (R14)', () => {
  it('open for an admin whose organisation requires one, and are refused to a password-only session', async () => {
    const strict = await createOrganisation(server, 'Strict Links Church');
    await enrol(strict.master.client);
    unwrap(
      await strict.master.client.rpc('set_two_factor_requirement', { required: true }),
      'require two-factor',
    );
    const admin = await addMember(server, strict, 'admin', 'strict-linker');
    await enrol(admin.client);
    const path = newPath(strict);
    await upload(admin, path, 'minutes of the council');

    const made = unwrap(await documents(admin).createSignedUrl(path, 3600), 'sign');
    const token = new URL(made.signedUrl).searchParams.get('token')!;
    expect(jwtPayload(token)).toMatchObject({ sub: admin.userId, aal: 'aal2' });
    const opened = await fetch(made.signedUrl);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toBe('minutes of the council');
    const many = unwrap(await documents(admin).createSignedUrls([path], 3600), 'sign many');
    expect(await (await fetch(many[0]!.signedUrl!)).text()).toBe('minutes of the council');

    const uploadLink = unwrap(
      await documents(admin).createSignedUploadUrl(newPath(strict)),
      'sign upload',
    );
    const uploaded = await server
      .anon()
      .storage.from('documents')
      .uploadToSignedUrl(uploadLink.path, uploadLink.token, 'agenda', {
        contentType: 'text/plain;charset=utf-8',
      });
    expect(uploaded.error).toBeNull();
    expect(await storedText(uploadLink.path)).toBe('agenda');

    // The same admin with a password-only session makes no link at all.
    const weak = await signIn(server, admin);
    const refused = await weak.storage.from('documents').createSignedUrl(path, 3600);
    expect(refused.data).toBeNull();
    expect(refused.error).not.toBeNull();
    const refusedUpload = await weak.storage
      .from('documents')
      .createSignedUploadUrl(newPath(strict));
    expect(refusedUpload.data).toBeNull();
  });

  it('follow the member who enrolled a factor: a link made before it stops, one made after works', async () => {
    const member = await addMember(server, church, 'user', 'careful-linker');
    const path = newPath(church);
    await upload(member, path, 'rota');
    const before = unwrap(await documents(member).createSignedUrl(path, 3600), 'sign');
    expect(await (await fetch(before.signedUrl)).text()).toBe('rota');

    await enrol(member.client);
    expect((await fetch(before.signedUrl)).status).toBe(400);
    const after = unwrap(await documents(member).createSignedUrl(path, 3600), 'sign');
    expect(await (await fetch(after.signedUrl)).text()).toBe('rota');
  });
});

describe('signed upload links work once', () => {
  it('refuse a second upload with an upsert link, keeping the first upload', async () => {
    const member = await addMember(server, church, 'user', 'uploader');
    const path = newPath(church);
    const link = unwrap(
      await documents(member).createSignedUploadUrl(path, { upsert: true }),
      'sign upload',
    );
    const anonymous = server.anon().storage.from('documents');
    const first = await anonymous.uploadToSignedUrl(path, link.token, 'first', {
      contentType: 'text/plain;charset=utf-8',
      upsert: true,
    });
    expect(first.error).toBeNull();

    for (const text of ['second', 'third']) {
      const again = await anonymous.uploadToSignedUrl(path, link.token, text, {
        contentType: 'text/plain;charset=utf-8',
        upsert: true,
      });
      expect(again.error).toMatchObject({
        statusCode: '409',
        message: 'The resource already exists',
      });
    }
    expect(await storedText(path)).toBe('first');
    // The object is the member's, written as the member (not as the service role).
    const { data } = await server.service().storage.from('documents').info(path);
    expect(data).toMatchObject({ name: path });
    const owner = await server.db
      .serverWork()
      .query<{ owner_id: string }>(
        "select owner_id from storage.objects where bucket_id = 'documents' and name = $1",
        [path],
      );
    expect(owner.rows[0]?.owner_id).toBe(member.userId);
  });

  it('refuse a used link after its object was removed, and keep nothing', async () => {
    const member = await addMember(server, church, 'user', 'remover');
    const path = newPath(church);
    const link = unwrap(await documents(member).createSignedUploadUrl(path), 'sign upload');
    const anonymous = server.anon().storage.from('documents');
    expect((await anonymous.uploadToSignedUrl(path, link.token, 'once')).error).toBeNull();
    unwrap(await documents(member).remove([path]), 'remove');

    const again = await anonymous.uploadToSignedUrl(path, link.token, 'twice');
    expect(again.error).toMatchObject({ statusCode: '409' });
    expect(await storedText(path)).toBeNull();
  });

  it('can be tried again after an upload that failed', async () => {
    const member = await addMember(server, church, 'user', 'retrier');
    const path = newPath(church);
    const link = unwrap(await documents(member).createSignedUploadUrl(path), 'sign upload');
    // A media type the server refuses: the upload fails before its bytes are read.
    const refused = await storageFetch(
      server,
      `/object/upload/sign/documents/${path}?token=${link.token}`,
      {
        method: 'PUT',
        token: null,
        headers: { 'content-type': 'text/plain; x=y, text/html' },
        body: 'phish',
      },
    );
    expect(await refused.json()).toMatchObject({ statusCode: '415', code: 'InvalidMimeType' });
    const retried = await server
      .anon()
      .storage.from('documents')
      .uploadToSignedUrl(path, link.token, 'second try', {
        contentType: 'text/plain;charset=utf-8',
      });
    expect(retried.error).toBeNull();
    expect(await storedText(path)).toBe('second try');
  });
});

describe('signed link expiry is capped', () => {
  const SEVEN_DAYS = 7 * 86_400;

  async function signedFile() {
    const member = await addMember(server, church, 'user', 'expiry');
    const path = newPath(church);
    await upload(member, path, 'dated');
    return { member, path };
  }

  const expiryOf = (url: string) => {
    const token = new URL(url, 'http://x').searchParams.get('token')!;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      iat: number;
      exp: number;
    };
    return claims.exp - claims.iat;
  };

  it('refuses an expiry past the longest allowed (7 days by default) with InvalidParameter', async () => {
    const { member, path } = await signedFile();
    for (const expiresIn of [10 * 365 * 86_400, SEVEN_DAYS + 1]) {
      const one = await documents(member).createSignedUrl(path, expiresIn);
      expect(one.error).toMatchObject({
        statusCode: '400',
        message: 'Invalid Parameter expiresIn',
      });
      const many = await documents(member).createSignedUrls([path], expiresIn);
      expect(many.error).toMatchObject({ message: 'Invalid Parameter expiresIn' });
    }
    const longest = unwrap(await documents(member).createSignedUrl(path, SEVEN_DAYS), 'sign');
    expect(expiryOf(longest.signedUrl)).toBe(SEVEN_DAYS);
    // The app's own links: one hour (spec §9).
    const app = unwrap(await documents(member).createSignedUrl(path, 3600), 'sign');
    expect(expiryOf(app.signedUrl)).toBe(3600);
    expect(await (await fetch(app.signedUrl)).text()).toBe('dated');
  });

  it('gives signed upload links two hours', async () => {
    const { member } = await signedFile();
    const link = unwrap(
      await documents(member).createSignedUploadUrl(newPath(church)),
      'sign upload',
    );
    expect(expiryOf(link.signedUrl)).toBe(2 * 3600);
  });

  it('follows [storage] max_signed_url_expiry, for upload links too', async () => {
    const short = await startTestServer({ env: { STORAGE_MAX_SIGNED_URL_EXPIRY: '1h' } });
    try {
      const organisation = await createOrganisation(short, 'Short Links');
      const path = newPath(organisation);
      const bucket = organisation.master.client.storage.from('documents');
      unwrap(await bucket.upload(path, 'x', { contentType: 'text/plain;charset=utf-8' }), 'up');
      expect((await bucket.createSignedUrl(path, 3601)).error).toMatchObject({
        message: 'Invalid Parameter expiresIn',
      });
      expect(expiryOf(unwrap(await bucket.createSignedUrl(path, 3600), 'sign').signedUrl)).toBe(
        3600,
      );
      const upload = unwrap(await bucket.createSignedUploadUrl(newPath(organisation)), 'sign');
      expect(expiryOf(upload.signedUrl)).toBe(3600);
    } finally {
      await short.close();
    }
  });
});

describe('signed links take their signer’s turns', () => {
  // Everyone behind one address (a church office's staff) shares that address's turns for the
  // database. A signed link acts for its signer, so its work must wait in the signer's lane,
  // not behind every anonymous request from the address it is fetched from.
  it('are answered in the signer’s lane while anonymous requests from their address queue up', async () => {
    const member = await addMember(server, church, 'user', 'lanes');
    const path = newPath(church);
    await upload(member, path, 'a preview');
    const { signedUrl } = unwrap(await documents(member).createSignedUrl(path, 3600), 'sign');
    // The link's object is gone, so its answer is the signer's lookup under RLS alone. Serving
    // a file also opens and reads it on libuv's thread pool, which this process shares with
    // whatever else it does: with that pool busy, the file's reads came after all hundred
    // anonymous answers (in two full runs of the suite), whatever the link's lane.
    unwrap(await documents(member).remove([path]), 'remove');

    const finished: string[] = [];
    const track = async (label: string, request: Promise<Response>) => {
      const response = await request;
      const body = await response.text();
      finished.push(label);
      return { status: response.status, body };
    };
    // The database is busy (every connection of PostgreSQL's pool, each in a lane of its own;
    // PGlite runs one statement at a time) while a hundred anonymous reads from this address
    // queue up, then the signed link's fetch. The reads reach the
    // queue through this process's own event loop, so on a busy machine a fixed time could end
    // before they were all there, and the link's fetch, sent last, was then answered last
    // whatever its lane. On PostgreSQL the pool's connections therefore wait on a lock that
    // another session holds until the server has received the link's request (Node's
    // `http.server.request.start`); PGlite's one connection sleeps for a second.
    const arrived = new Set<string>();
    const noteArrival = ({ request }: { request: { url?: string } }) => {
      arrived.add(request.url ?? '');
    };
    const signedPath = new URL(signedUrl).pathname;
    diagnostics.subscribe('http.server.request.start', noteArrival as (message: unknown) => void);
    let holder: pg.Client | undefined;
    let busy: Promise<unknown>;
    if (server.db.kind === 'pglite') {
      busy = server.db.scoped({ lane: 'busy', role: 'service_role' }).query('select pg_sleep(1)');
    } else {
      holder = new pg.Client({ connectionString: server.databaseUrl! });
      await holder.connect();
      await holder.query('select pg_advisory_lock(7341)');
      busy = Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          server.db
            .scoped({ lane: `busy ${i}`, role: 'service_role' })
            .query('select pg_advisory_xact_lock_shared(7341)'),
        ),
      );
    }
    // Anonymous reads of a file in a bucket that is not public: one statement each (the
    // bucket's lookup), each a turn of the address's lane. REST reads would not do: a caller's
    // reads join its running ones on PostgreSQL (`SharedReads`), so a hundred of them were
    // answered in a few round trips, before the link's few steps (98th of 101).
    const anonymous = Array.from({ length: 100 }, (_, i) =>
      track(
        `anonymous ${i}`,
        fetch(`${server.url}/storage/v1/object/public/documents/lane-${i}`, {
          headers: { apikey: server.keys.anonKey },
        }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const signed = track('signed', fetch(signedUrl));
    if (holder) {
      // Released once every request is in, the link's last (at most after 20 s), and a second
      // more for the link to reach its first step's turn on a loaded machine.
      const until = Date.now() + 20_000;
      const allIn = () =>
        [...arrived].some((url) => url.startsWith(signedPath)) &&
        [...arrived].filter((url) => url.includes('/public/documents/lane-')).length === 100;
      while (!allIn() && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await holder.query('select pg_advisory_unlock(7341)');
      await holder.end();
    }
    await busy;
    diagnostics.unsubscribe('http.server.request.start', noteArrival as (message: unknown) => void);

    const answer = await signed;
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'not_found' });
    // The bucket was looked up and is not public: each read ran in the database.
    for (const answer of await Promise.all(anonymous)) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'Bucket not found' });
    }
    // In the address's lane it would come last, after all hundred.
    expect(finished.indexOf('signed')).toBeLessThan(50);
  });
});
