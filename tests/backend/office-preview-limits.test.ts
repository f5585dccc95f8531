import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { largeXlsx, xlsx } from '../support/sample-files.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Issue 25, item 2: the bounds of a Word or Excel preview's rendering, in a capped background
// process taking turns by organisation (office-previews.test.ts has the previews themselves).
// What is tested here is the background processes' and the CPU pool's, whichever database
// holds the rows: `npm test` runs this file on its PGlite pass only
// (scripts/database-test-files.ts, EMBEDDED_DATABASE_ONLY).

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('the memory cap of a preview’s rendering', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let bigWorkbook: Uint8Array;

  beforeAll(async () => {
    // A 5 MB workbook of 94,000 cells of random text: within the 16 MiB of XML checked before
    // decoding, but more than a deliberately tiny cap once exceljs builds its cells.
    bigWorkbook = await largeXlsx(
      'Giving',
      Array.from({ length: 47_000 }, () => [
        randomBytes(48).toString('base64url'),
        randomBytes(48).toString('base64url'),
      ]),
    );
    server = await startTestServer({
      env: { JOB_POLL_INTERVAL: '1h', BACKGROUND_MEMORY_LIMIT: '150MiB' },
    });
    church = await createOrganisation(server, 'Big Sheet Church');
    other = await createOrganisation(server, 'Small Sheet Church');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const previewOf = async (who: Person, filePath: string) => {
    const signed = unwrap(
      await who.client.storage.from('documents').createSignedUrl(filePath, 60),
      'createSignedUrl',
    );
    const token = new URL(signed.signedUrl).searchParams.get('token')!;
    return fetch(`${server.url}/preview/v1/office/Giving.xlsx?token=${token}`);
  };

  it('ends only the rendering process, says why, and renders the next file', async () => {
    const big = await uploadDocument(church.master, church.id, {
      name: 'Giving.xlsx',
      bytes: bigWorkbook,
      contentType: XLSX,
    });
    let done = false;
    const answer = previewOf(church.master, big.filePath).finally(() => (done = true));
    const statuses: number[] = [];
    while (!done) {
      statuses.push((await fetch(`${server.url}/config.json`)).status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const response = await answer;
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toBe(
      'This file could not be previewed: reading it needs more than 150 MiB of memory',
    );

    const small = await uploadDocument(other.master, other.id, {
      name: 'Rota.xlsx',
      bytes: await xlsx('Rota', [['Sunday', 'Ada']]),
      contentType: XLSX,
    });
    const next = await previewOf(other.master, small.filePath);
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('Ada');
  }, 120_000);
});

describe('turns between organisations', () => {
  let server: TestServer;
  let busy: Organisation;
  let quiet: Organisation;
  let workbook: Uint8Array;

  beforeAll(async () => {
    // Long enough to render (about half a second each, once the renderers' process has
    // started) that the order of the answers shows the turns, short enough that the last of
    // four waits well within a rendering's 10 s for its turn on a loaded machine.
    workbook = await largeXlsx(
      'Giving',
      Array.from({ length: 10_000 }, () => [
        randomBytes(24).toString('base64url'),
        randomBytes(24).toString('base64url'),
      ]),
    );
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    busy = await createOrganisation(server, 'Busy Church');
    quiet = await createOrganisation(server, 'Quiet Church');
    // The renderers' process started and its reader loaded before the turns: a rendering waits
    // at most 10 s for its turn, and the first one's start (about 2 s of the 3.5-6 s the last
    // of the busy organisation's four waited, at load 4-6) came on top of the four renderings.
    const warmUp = await uploadDocument(quiet.master, quiet.id, {
      name: 'Warm-up.xlsx',
      bytes: await xlsx('Rota', [['Sunday', 'Ada']]),
      contentType: XLSX,
    });
    const warmed = await fetch(await addressOf(quiet.master, warmUp.filePath, 'Warm-up.xlsx'));
    expect(warmed.status).toBe(200);
    await warmed.text();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const addressOf = async (who: Person, filePath: string, name: string) => {
    const signed = unwrap(
      await who.client.storage.from('documents').createSignedUrl(filePath, 600),
      'createSignedUrl',
    );
    const token = new URL(signed.signedUrl).searchParams.get('token')!;
    return `${server.url}/preview/v1/office/${name}?token=${token}`;
  };

  it('takes turns by organisation, not by member: four members of one delay another organisation by one rendering', async () => {
    const members = await Promise.all(
      [1, 2, 3, 4].map((n) => addMember(server, busy, 'user', `busy-${n}`)),
    );
    const busyAddresses = await Promise.all(
      members.map(async (member, n) => {
        const document = await uploadDocument(member, busy.id, {
          name: `Giving ${n}.xlsx`,
          bytes: workbook,
          contentType: XLSX,
        });
        return addressOf(member, document.filePath, `Giving ${n}.xlsx`);
      }),
    );
    const small = await uploadDocument(quiet.master, quiet.id, {
      name: 'Rota.xlsx',
      bytes: await xlsx('Rota', [['Sunday', 'Ada']]),
      contentType: XLSX,
    });
    const quietAddress = await addressOf(quiet.master, small.filePath, 'Rota.xlsx');

    const finished: string[] = [];
    const ask = async (label: string, address: string) => {
      const response = await fetch(address);
      expect(response.status).toBe(200);
      await response.text();
      finished.push(label);
    };
    const busyAsked = busyAddresses.map((address, n) => ask(`busy ${n}`, address));
    // Asked once the busy organisation's four are waiting for their turns.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all([...busyAsked, ask('quiet', quietAddress)]);
    expect(finished).toHaveLength(5);
    // With turns by member, the quiet organisation would come after all four.
    expect(finished.indexOf('quiet')).toBeLessThan(3);
  }, 120_000);
});
