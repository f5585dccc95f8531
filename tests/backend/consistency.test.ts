import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { nodeClient, startTestServer, type TestServer } from '../support/server.ts';
import {
  copyPgliteTemplate,
  freshPostgresDatabase,
  postgresAdminUrl,
} from '../support/template.ts';
import { scratchDir } from '../support/scratch.ts';
import { exists, removeCheckScript, runCheck, serveOn } from './consistency-check.ts';

// The consistency check is run as a command, as administrators run it (`npm run
// check-consistency`: the script bundled once and run with `node`, bundled-script.ts) against
// stores made inconsistent for real: through the API as the app would leave them after an
// interrupted flow, and on disk as a lost or stray file would. Its refusals of an embedded
// database are in consistency-embedded.test.ts.

afterAll(removeCheckScript);

interface JsonReport {
  counts: { documents: number; objects: number; files: number | null };
  problems: number;
  findings: {
    documentsWithoutFile: { document: { id: string }; reason: string }[];
    sizeMismatches: { document: { id: string }; objectSize: number }[];
    orphanObjects: { item: { name: string } }[];
    objectsWithoutFile: { bucketId: string; name: string }[];
    orphanFiles: { item: { path: string } }[];
    recent: { objects: { item: { name: string } }[]; files: unknown[] };
    storageTotalDrifts: { organizationId: string; recorded: number; counted: number }[];
  };
  fix?: {
    result: { objectsRemoved: number; filesRemoved: number; totalsRecounted: number };
    after: { problems: number };
  };
}

async function runJson(args: string[], env: Record<string, string> = {}) {
  const result = await runCheck([...args, '--json'], env);
  if (result.code === 2) throw new Error(`the check could not run: ${result.stderr}`);
  return { code: result.code, report: JSON.parse(result.stdout) as JsonReport };
}

interface Member {
  client: SupabaseClient;
  organizationId: string;
}

async function newOrganization(server: {
  url: string;
  keys: { anonKey: string };
}): Promise<Member> {
  const client = nodeClient(server.url, server.keys.anonKey);
  const { error: signUpError } = await client.auth.signUp({
    email: `consistency-${randomUUID()}@example.test`,
    password: 'correct horse battery staple',
  });
  if (signUpError) throw signUpError;
  const { data, error } = await client.rpc('create_organization', { name: 'Grace Chapel' });
  if (error) throw new Error(error.message);
  return { client, organizationId: (data as { id: string }).id };
}

const objectName = (member: Member) =>
  `documents/${member.organizationId}/${Date.now()}-${randomUUID().slice(0, 8)}.txt`;

/** The bytes to the organisation's folder, as the app's upload does first. */
async function uploadFile(member: Member, name: string, content: string): Promise<void> {
  const { error } = await member.client.storage
    .from('documents')
    .upload(name, Buffer.from(content), { contentType: 'text/plain' });
  if (error) throw new Error(error.message);
}

/** The document row, as the app inserts it after the upload; returns its id. */
async function insertRow(member: Member, name: string, size: number): Promise<string> {
  const { data, error } = await member.client
    .from('documents')
    .insert({
      organization_id: member.organizationId,
      name: `${path.basename(name)} report.txt`,
      category: 'Reports',
      size,
      file_path: name,
      tags: [],
      status: 'Active',
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return (data as { id: string }).id;
}

/** The app's whole upload flow: bytes, then row. Returns the document id and object name. */
async function uploadDocument(member: Member, content: string) {
  const name = objectName(member);
  await uploadFile(member, name, content);
  return { id: await insertRow(member, name, Buffer.byteLength(content)), name };
}

/** The file of an object on disk (see server/storage/disk-file-store.ts). */
async function fileOf(
  server: { url: string; keys: { serviceRoleKey: string } },
  dataDir: string,
  bucket: string,
  name: string,
): Promise<string> {
  const service = nodeClient(server.url, server.keys.serviceRoleKey);
  const { data, error } = await service.storage.from(bucket).info(name);
  if (error) throw new Error(error.message);
  const version = (data as { version: string }).version;
  return path.join(dataDir, 'storage', 'objects', version.slice(0, 2), version);
}

describe('check-consistency through the API of a running server', () => {
  let server: TestServer;
  let member: Member;

  beforeAll(async () => {
    server = await startTestServer();
    member = await newOrganization(server);
  }, 60_000);
  afterAll(() => server?.close());

  it('reports a store written only through the app flows as consistent', async () => {
    for (const content of ['Minutes of the board', 'Insurance certificate', '']) {
      await uploadDocument(member, content);
    }
    // The key is derived from the data directory's jwt-secret: the usual local set-up.
    const { code, report } = await runJson(['--url', server.url, '--data-dir', server.dataDir]);
    expect(report.problems).toBe(0);
    expect(report.counts).toEqual({
      documents: 3,
      objects: 3,
      // Every bucket the migrations make, also the export and import ones (migration …1000).
      buckets: ['branding', 'documents', 'exports', 'imports'],
      files: 3,
    });
    expect(code).toBe(0);

    const text = await runCheck(['--url', server.url, '--data-dir', server.dataDir]);
    expect(text.stdout).toContain('Checked 3 documents, 3 stored objects');
    expect(text.stdout).toContain('Documents whose file is missing: 0');
    expect(text.stdout).toContain('Files on disk that no storage object points to: 0');
    expect(text.stdout).toMatch(/Result: consistent\.\n$/);
    expect(text.code).toBe(0);
  }, 60_000);

  describe('with one inconsistency of every kind', () => {
    const made = {} as {
      rowWithoutObject: string;
      rowWithoutFile: { id: string; name: string };
      orphanObject: string;
      sizeMismatch: string;
      logo: string;
      strayFile: string;
      partFile: string;
    };

    // Every orphan counts, however young (the default grace on a running server is 10 minutes).
    const now = () => ['--url', server.url, '--grace-minutes', '0'];

    beforeAll(async () => {
      // A row whose upload never happened.
      made.rowWithoutObject = await insertRow(member, objectName(member), 10);
      // A document whose bytes were lost from disk.
      made.rowWithoutFile = await uploadDocument(member, 'Lost contract');
      await rm(await fileOf(server, server.dataDir, 'documents', made.rowWithoutFile.name));
      // An upload whose row was never inserted (the browser stopped between the two requests).
      made.orphanObject = objectName(member);
      await uploadFile(member, made.orphanObject, 'Nobody saved my row');
      // A size recorded wrongly on the row (the database keeps it right when the file is
      // replaced, but the size at upload is the client's word, and older versions of the app
      // recorded it in a second request).
      const edited = await uploadDocument(member, 'Much longer content now');
      const { error } = await member.client
        .from('documents')
        .update({ size: 5 })
        .eq('id', edited.id);
      if (error) throw new Error(error.message);
      made.sizeMismatch = edited.id;
      // A storage object of another bucket whose file was lost.
      made.logo = `${member.organizationId}/logo.svg`;
      const logo = await member.client.storage
        .from('branding')
        .upload(made.logo, '<svg xmlns="http://www.w3.org/2000/svg"/>', {
          contentType: 'image/svg+xml',
        });
      if (logo.error) throw new Error(logo.error.message);
      await rm(await fileOf(server, server.dataDir, 'branding', made.logo));
      // Files as an interrupted write leaves them: a finished one without a row, and a part.
      const stray = randomUUID();
      const shard = path.join(server.dataDir, 'storage', 'objects', stray.slice(0, 2));
      await mkdir(shard, { recursive: true });
      made.strayFile = `objects/${stray.slice(0, 2)}/${stray}`;
      made.partFile = `objects/${stray.slice(0, 2)}/${randomUUID()}.part`;
      await writeFile(path.join(server.dataDir, 'storage', made.strayFile), 'no row for me');
      await writeFile(path.join(server.dataDir, 'storage', made.partFile), 'half a fi');
    }, 60_000);

    it('reports each of them, comparing the files on disk', async () => {
      const { code, report } = await runJson([...now(), '--data-dir', server.dataDir]);
      const { findings } = report;
      expect(findings.documentsWithoutFile.map((f) => [f.document.id, f.reason]).sort()).toEqual(
        [
          [made.rowWithoutObject, 'no-object'],
          [made.rowWithoutFile.id, 'no-file'],
        ].sort(),
      );
      expect(findings.sizeMismatches).toEqual([
        expect.objectContaining({
          document: expect.objectContaining({ id: made.sizeMismatch }),
          objectSize: 23,
        }),
      ]);
      expect(findings.orphanObjects.map((o) => o.item.name)).toEqual([made.orphanObject]);
      expect(findings.objectsWithoutFile.map((o) => `${o.bucketId}/${o.name}`).sort()).toEqual(
        [`branding/${made.logo}`, `documents/${made.rowWithoutFile.name}`].sort(),
      );
      expect(findings.orphanFiles.map((f) => f.item.path).sort()).toEqual(
        [made.strayFile, made.partFile].sort(),
      );
      expect(report.problems).toBe(8);
      expect(code).toBe(1);
    }, 60_000);

    it('says so in plain text with counts', async () => {
      const { code, stdout } = await runCheck([...now(), '--data-dir', server.dataDir]);
      expect(stdout).toContain('Documents whose file is missing: 2');
      expect(stdout).toContain(`no stored object documents/${member.organizationId}/`);
      expect(stdout).toContain('Documents whose recorded size differs from their file: 1');
      expect(stdout).toContain('Stored files with no document (documents bucket): 1');
      expect(stdout).toContain(`  - ${made.orphanObject} (`);
      expect(stdout).toContain('Storage objects whose file is missing on disk: 2');
      expect(stdout).toContain('Files on disk that no storage object points to: 2');
      expect(stdout).toContain('Result: 8 inconsistencies found.');
      expect(code).toBe(1);
    }, 60_000);

    it('probes each file through the API when the data directory is not at hand', async () => {
      const { code, report } = await runJson(now(), {
        SUPABASE_SERVICE_ROLE_KEY: server.keys.serviceRoleKey,
      });
      expect(report.counts.files).toBeNull();
      expect(report.findings.objectsWithoutFile.map((o) => o.name).sort()).toEqual(
        [made.logo, made.rowWithoutFile.name].sort(),
      );
      expect(report.findings.documentsWithoutFile).toHaveLength(2);
      expect(report.findings.orphanObjects).toHaveLength(1);
      // Stray files on disk cannot be seen through the API.
      expect(report.problems).toBe(6);
      expect(code).toBe(1);
    }, 60_000);

    it('does not count orphans younger than the grace period, and lists them', async () => {
      const { report } = await runJson([
        '--url',
        server.url,
        '--data-dir',
        server.dataDir,
        '--grace-minutes',
        '10',
      ]);
      expect(report.findings.orphanObjects).toEqual([]);
      expect(report.findings.recent.objects.map((o) => o.item.name)).toEqual([made.orphanObject]);
      expect(report.findings.orphanFiles).toEqual([]);
      expect(report.findings.recent.files).toHaveLength(2);
      // Still counted: two documents without their file, the size, two objects without file.
      expect(report.problems).toBe(5);
    }, 60_000);

    it('refuses an anon key and a fix without a grace period on a running server', async () => {
      const anon = await runCheck(['--url', server.url], {
        SUPABASE_SERVICE_ROLE_KEY: server.keys.anonKey,
      });
      expect(anon.stderr).toContain('is not a service-role key');
      expect(anon.code).toBe(2);
      const hasty = await runCheck([...now(), '--data-dir', server.dataDir, '--fix']);
      expect(hasty.stderr).toContain('--grace-minutes of at least 1');
      expect(hasty.code).toBe(2);
      expect(await exists(path.join(server.dataDir, 'storage', made.strayFile))).toBe(true);
    }, 60_000);

    it('--fix removes only old orphans and leaves every document alone', async () => {
      // Two minutes pass for the orphans (their age is what the grace period looks at).
      await server.db
        .serverWork()
        .query(
          `update storage.objects set created_at = now() - interval '2 minutes' where name = $1`,
          [made.orphanObject],
        );
      const past = new Date(Date.now() - 120_000);
      for (const file of [made.strayFile, made.partFile]) {
        await utimes(path.join(server.dataDir, 'storage', file), past, past);
      }
      const documentsBefore = await server.db
        .serverWork()
        .query('select id from documents order by id');

      const { code, report } = await runJson([
        '--url',
        server.url,
        '--data-dir',
        server.dataDir,
        '--grace-minutes',
        '1',
        '--fix',
      ]);
      expect(report.fix?.result).toEqual({
        objectsRemoved: 1,
        filesRemoved: 2,
        totalsRecounted: 0,
      });
      // Left: two documents without their file, the size mismatch, the logo's lost file.
      expect(report.fix?.after.problems).toBe(5);
      expect(code).toBe(1);

      const service = server.service();
      const { data } = await service.storage.from('documents').exists(made.orphanObject);
      expect(data).toBe(false);
      expect(await exists(path.join(server.dataDir, 'storage', made.strayFile))).toBe(false);
      expect(await exists(path.join(server.dataDir, 'storage', made.partFile))).toBe(false);
      const documentsAfter = await server.db
        .serverWork()
        .query('select id from documents order by id');
      expect(documentsAfter.rows).toEqual(documentsBefore.rows);
    }, 60_000);
  });
});

describe('check-consistency with earlier versions of documents', () => {
  let server: TestServer;
  let member: Member;

  beforeAll(async () => {
    server = await startTestServer();
    member = await newOrganization(server);
  }, 60_000);
  afterAll(() => server?.close());

  it('counts the file of an earlier version as in use, and --fix keeps it', async () => {
    const first = await uploadDocument(member, 'Certificate, 2025 edition');
    const renewed = objectName(member);
    await uploadFile(member, renewed, 'Certificate, 2026 edition');
    const { error } = await member.client.rpc('renew_document', {
      document_id: first.id,
      file_path: renewed,
      expiry_date: '2027-01-31',
    });
    if (error) throw new Error(error.message);
    await server.db
      .serverWork()
      .query(
        `update storage.objects set created_at = now() - interval '2 minutes' where name = $1`,
        [first.name],
      );

    const { code, report } = await runJson([
      '--url',
      server.url,
      '--data-dir',
      server.dataDir,
      '--grace-minutes',
      '1',
      '--fix',
    ]);
    expect(report.findings.orphanObjects).toEqual([]);
    expect(report.counts).toMatchObject({ documents: 1, objects: 2, files: 2 });
    expect(report.problems).toBe(0);
    expect(code).toBe(0);
    const { data } = await server.service().storage.from('documents').exists(first.name);
    expect(data).toBe(true);
  }, 60_000);
});

describe('check-consistency on a data directory', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** The server's database: a persisted PGlite directory, or PostgreSQL in the PostgreSQL run. */
  async function persistedDatabase(
    dataDir: string,
  ): Promise<{ open: () => Promise<Database>; env: Record<string, string> }> {
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const fresh = await freshPostgresDatabase(adminUrl);
      cleanups.push(fresh.drop);
      return {
        open: () => openPostgres(fresh.url),
        env: { DATABASE_URL: fresh.url, DATA_DIR: dataDir },
      };
    }
    const dbDir = path.join(dataDir, 'db');
    await copyPgliteTemplate('app', dbDir);
    return { open: () => openPglite({ dataDir: dbDir }), env: { DATA_DIR: dataDir } };
  }

  async function newDataDir(): Promise<string> {
    const dataDir = await scratchDir('steward-consistency-');
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return dataDir;
  }

  it('checks a stopped server, and --fix removes the orphaned upload', async () => {
    const dataDir = await newDataDir();
    const database = await persistedDatabase(dataDir);
    const server = await serveOn(dataDir, await database.open());
    let orphan: string;
    try {
      const member = await newOrganization(server);
      await uploadDocument(member, 'Volunteer schedule');
      orphan = objectName(member);
      await uploadFile(member, orphan, 'Uploaded, then the server stopped');
      await server.db
        .serverWork()
        .query(
          `update storage.objects set created_at = now() - interval '1 hour' where name = $1`,
          [orphan],
        );
    } finally {
      await server.close();
    }

    const text = await runCheck(['--grace-minutes', '30'], database.env);
    expect(text.stdout).toContain('Checked 1 documents, 2 stored objects');
    expect(text.stdout).toContain('Stored files with no document (documents bucket): 1');
    expect(text.stdout).toContain(`  - ${orphan} (60 min old)`);
    expect(text.stdout).toContain('Result: 1 inconsistency found.');
    expect(text.code).toBe(1);

    const fixed = await runJson(['--grace-minutes', '30', '--fix'], database.env);
    expect(fixed.report.fix?.result).toEqual({
      objectsRemoved: 1,
      filesRemoved: 0,
      totalsRecounted: 0,
    });
    expect(fixed.code).toBe(0);
    const again = await runJson([], database.env);
    expect(again.report.counts).toEqual(
      expect.objectContaining({ documents: 1, objects: 1, files: 1 }),
    );
    expect(again.code).toBe(0);
  }, 120_000);

  it("reports an organisation's storage total that differs from its files, and --fix recounts it", async () => {
    const dataDir = await newDataDir();
    const database = await persistedDatabase(dataDir);
    const server = await serveOn(dataDir, await database.open());
    let member: Member;
    try {
      member = await newOrganization(server);
      await uploadDocument(member, 'Safeguarding policy');
      // The running total the quota reads, changed behind the triggers' back.
      await server.db.serverWork().query(
        `update private.organization_storage_totals set bytes = bytes + 4096
          where organization_id = $1`,
        [member.organizationId],
      );
    } finally {
      await server.close();
    }
    const size = Buffer.byteLength('Safeguarding policy');

    const text = await runCheck([], database.env);
    expect(text.stdout).toContain(
      "Organisations whose storage total differs from their files (the quota's count): 1",
    );
    expect(text.stdout).toContain(
      `  - organisation ${member.organizationId}: counted ${(size + 4096).toLocaleString('en-US')} bytes, its files take ${size} bytes`,
    );
    expect(text.stdout).toContain('Result: 1 inconsistency found.');
    expect(text.code).toBe(1);

    const fixed = await runJson(['--fix'], database.env);
    expect(fixed.report.findings.storageTotalDrifts).toEqual([
      { organizationId: member.organizationId, recorded: size + 4096, counted: size },
    ]);
    expect(fixed.report.fix?.result).toEqual({
      objectsRemoved: 0,
      filesRemoved: 0,
      totalsRecounted: 1,
    });
    expect(fixed.code).toBe(0);
    const again = await runJson([], database.env);
    expect(again.report.findings.storageTotalDrifts).toEqual([]);
    expect(again.code).toBe(0);
  }, 120_000);
});
