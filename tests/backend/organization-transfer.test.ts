import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ZipFile } from 'yazl';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/jobs/clock.ts';
import { openFileStore } from '../../server/storage/open-file-store.ts';
import { importFileVersion } from '../../server/transfer/import-files.ts';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rawZip, unzip } from '../support/zip-files.ts';

// Export and import of a whole organisation (migration 20261127001000, server/transfer/): an
// admin's export is built by a job in the worker pool into the private bucket `exports`; an
// import of such a ZIP restores documents, properties, tags and expiry dates, and a hostile or
// foreign ZIP is refused with a message and nothing written.

const DAY = 86_400_000;

interface ExportRow {
  id: string;
  status: string;
  progress: number;
  document_count: number | null;
  file_path: string | null;
  size: number | null;
  error: string | null;
  expires_at: string | null;
}

interface ImportRow {
  id: string;
  status: string;
  document_count: number | null;
  error: string | null;
}

interface ManifestJson {
  format: string;
  version: number;
  organization: { id: string; name: string };
  include_versions: boolean;
  documents: {
    id: string;
    name: string;
    category: string;
    expiry_date: string | null;
    tags: string[];
    description: string | null;
    size: number;
    content_type: string | null;
    sha256: string | null;
    responsible: { email: string; name: string } | null;
    uploaded_by: { email: string } | null;
    file: string | null;
    versions: { version_number: number; change: string; file: string | null }[];
    history: { kind: string; actor: string | null }[];
  }[];
  history: { kind: string }[];
}

describe('organisation export and import', () => {
  let server: TestServer;
  let clock: ManualClock;
  let church: Organisation;
  let user: Person;
  let admin: Person;
  let other: Organisation;
  const bytes = {
    contract: randomBytes(3000),
    minutes: Buffer.from('Minutes of the council, 12 May\n'.repeat(200)),
    rota: Buffer.from('name,day\nAnn,Sunday\n'),
    earlier: Buffer.from('the first draft of the minutes'),
  };

  /** Runs the due jobs; the clock first catches up with the database's `now()` of new jobs. */
  async function runJobs() {
    if (clock.now().getTime() < Date.now() + 1000) clock.set(new Date(Date.now() + 1000));
    await server.jobs.runDue();
  }

  const exportsOf = async (person: Person) =>
    unwrap(
      await person.client.from('organization_exports').select('*').order('created_at'),
      'organization_exports',
    ) as ExportRow[];

  async function exportAs(person: Person, includeVersions: boolean): Promise<ExportRow> {
    const started = unwrap(
      await person.client
        .rpc('start_organization_export', { include_versions: includeVersions })
        .single<ExportRow>(),
      'start_organization_export',
    );
    expect(started.status).toBe('queued');
    await runJobs();
    return unwrap(
      await person.client.from('organization_exports').select('*').eq('id', started.id).single(),
      'export row',
    ) as ExportRow;
  }

  async function download(person: Person, row: ExportRow): Promise<Map<string, Buffer>> {
    const { data, error } = await person.client.storage.from('exports').download(row.file_path!);
    if (error) throw new Error(`download: ${error.message}`);
    return unzip(new Uint8Array(await data.arrayBuffer()));
  }

  const manifestOf = (files: Map<string, Buffer>) =>
    JSON.parse(files.get('manifest.json')!.toString('utf8')) as ManifestJson;

  /** Uploads `zip` to the imports bucket as `person` and runs the import. */
  async function importAs(person: Person, organisation: Organisation, zip: Uint8Array) {
    const name = `${organisation.id}/${randomBytes(6).toString('hex')}.zip`;
    unwrap(
      await person.client.storage
        .from('imports')
        .upload(name, zip, { contentType: 'application/zip' }),
      'upload import',
    );
    const started = unwrap(
      await person.client.rpc('start_organization_import', { file_path: name }).single<ImportRow>(),
      'start_organization_import',
    );
    await runJobs();
    const row = unwrap(
      await person.client.from('organization_imports').select('*').eq('id', started.id).single(),
      'import row',
    ) as ImportRow;
    return { row, name };
  }

  /** What an organisation holds: documents, their storage rows, and files in the store. */
  async function holdings(organisation: Organisation) {
    const { rows } = await server.db.serverWork().query<{ documents: number; objects: number }>(
      `select (select count(*)::int from public.documents where organization_id = $1) as documents,
              (select count(*)::int from storage.objects
               where bucket_id = 'documents' and name like 'documents/' || $1 || '/%') as objects`,
      [organisation.id],
    );
    return rows[0]!;
  }

  /** The server's file store (on disk, or in a bucket with TEST_OBJECT_STORAGE=s3). */
  const fileStore = () => openFileStore(server.dataDir, server.config.storage.objects);

  /** Every stored file (and temporary file) of the server's file store, by name. */
  async function storedFiles(): Promise<string[]> {
    const entries = await fileStore().inventory();
    return entries.map((entry) => entry.path.split('/').pop()!).sort();
  }

  let contractId: string;
  let minutesId: string;

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    server = await startTestServer({
      clock,
      env: {
        JOB_POLL_INTERVAL: '1h',
        IMPORT_MAX_ENTRIES: '40',
        IMPORT_MAX_UNPACKED_SIZE: '30MiB',
        IMPORT_MAX_MANIFEST_SIZE: '256KiB',
        IMPORT_MAX_DOCUMENTS: '1000',
        EXPORT_RETENTION: '2d',
      },
    });
    await server.jobs.runDue();
    church = await createOrganisation(server, 'Export Church');
    other = await createOrganisation(server, 'Other Church');
    user = await addMember(server, church, 'user', 'export-user');
    admin = await addMember(server, church, 'admin', 'export-admin');

    contractId = (
      await uploadDocument(admin, church.id, {
        name: 'Caretaker contract.pdf',
        bytes: bytes.contract,
        contentType: 'application/pdf',
        category: 'HR',
        tags: ['staff', 'contract'],
        description: 'Signed in March',
        expiryDate: '2027-03-31',
      })
    ).id;
    // The responsible member is the user, not the uploader.
    unwrap(
      await admin.client
        .from('documents')
        .update({ responsible_id: user.userId })
        .eq('id', contractId),
      'set responsible',
    );
    const minutes = await uploadDocument(user, church.id, {
      name: 'Council minutes.txt',
      bytes: bytes.earlier,
      contentType: 'text/plain',
      category: 'Governance',
      tags: ['council'],
    });
    minutesId = minutes.id;
    // A content edit keeps the first file as version 1.
    const edited = `documents/${church.id}/${Date.now()}-edit.txt`;
    unwrap(
      await user.client.storage
        .from('documents')
        .upload(edited, bytes.minutes, { contentType: 'text/plain' }),
      'upload edit',
    );
    unwrap(
      await user.client.rpc('replace_document_file', {
        document_id: minutesId,
        file_path: edited,
        change: 'content_edit',
      }),
      'replace_document_file',
    );
    await uploadDocument(user, church.id, {
      name: 'Volunteer rota.csv',
      bytes: bytes.rota,
      contentType: 'text/csv',
      category: 'Volunteer/People Management',
    });
    const trashed = await uploadDocument(user, church.id, {
      name: 'Old flyer.txt',
      bytes: 'gone',
      contentType: 'text/plain',
    });
    unwrap(
      await user.client.rpc('delete_documents', { document_ids: [trashed.id] }),
      'delete_documents',
    );
  }, 120_000);
  afterAll(() => server?.close());

  it('lets only admins start an export, and shows exports to their own organisation only', async () => {
    const refused = await user.client.rpc('start_organization_export', { include_versions: false });
    expect(refused.error?.message).toBe('Only admins can export the organization');
    const outsider = await server.anon().rpc('start_organization_export');
    expect(outsider.error).not.toBeNull();
    expect(await holdings(church)).toMatchObject({ documents: 4 });
  });

  it('exports every document in folders by category with its bytes, a manifest and the history', async () => {
    const row = await exportAs(admin, false);
    expect(row).toMatchObject({ status: 'ready', progress: 100, document_count: 3, error: null });
    expect(row.file_path).toBe(`${church.id}/${row.id}.zip`);
    expect(new Date(row.expires_at!).getTime() - clock.now().getTime()).toBe(2 * DAY);

    const files = await download(admin, row);
    expect([...files.keys()].sort()).toEqual([
      'Governance/Council minutes.txt',
      'HR/Caretaker contract.pdf',
      'Volunteer_People Management/Volunteer rota.csv',
      'manifest.csv',
      'manifest.json',
    ]);
    expect(files.get('HR/Caretaker contract.pdf')!.equals(bytes.contract)).toBe(true);
    expect(files.get('Governance/Council minutes.txt')!.equals(bytes.minutes)).toBe(true);
    expect(files.get('Volunteer_People Management/Volunteer rota.csv')!.equals(bytes.rota)).toBe(
      true,
    );

    const manifest = manifestOf(files);
    expect(manifest).toMatchObject({
      format: 'steward-organization-export',
      version: 1,
      organization: { id: church.id, name: 'Export Church' },
      include_versions: false,
    });
    const contract = manifest.documents.find((d) => d.id === contractId)!;
    expect(contract).toMatchObject({
      name: 'Caretaker contract.pdf',
      category: 'HR',
      expiry_date: '2027-03-31',
      tags: ['staff', 'contract'],
      description: 'Signed in March',
      size: bytes.contract.byteLength,
      content_type: 'application/pdf',
      file: 'HR/Caretaker contract.pdf',
      responsible: { email: user.email },
      uploaded_by: { email: admin.email },
    });
    expect(contract.history.map((h) => h.kind)).toEqual(['document.uploaded', 'document.updated']);
    const minutes = manifest.documents.find((d) => d.id === minutesId)!;
    expect(minutes.versions).toEqual([
      expect.objectContaining({ version_number: 1, change: 'content_edit', file: null }),
    ]);
    expect(manifest.documents.map((d) => d.name)).not.toContain('Old flyer.txt');
    expect(manifest.history.map((h) => h.kind)).toContain('member.invitation_accepted');

    const csv = files.get('manifest.csv')!.toString('utf8').split('\r\n');
    expect(csv[0]).toMatch(/^id,name,category,expiry_date,tags,/);
    const contractLine = csv.find((line) => line.startsWith(contractId))!;
    expect(contractLine).toContain('Caretaker contract.pdf,HR,2027-03-31,staff; contract,');
    expect(contractLine).toContain(user.email);

    // Recorded in the history, by name.
    const { rows } = await server.db.serverWork().query<{ kind: string; actor_id: string | null }>(
      `select kind, actor_id from public.activity_log
       where organization_id = $1 and kind like 'organization.export%' order by id`,
      [church.id],
    );
    expect(rows).toEqual([
      { kind: 'organization.export_started', actor_id: admin.userId },
      { kind: 'organization.exported', actor_id: admin.userId },
    ]);
  });

  it('includes the earlier versions when asked', async () => {
    const row = await exportAs(church.master, true);
    const files = await download(church.master, row);
    expect(
      files.get('versions/Governance/Council minutes (version 1).txt')!.equals(bytes.earlier),
    ).toBe(true);
    const minutes = manifestOf(files).documents.find((d) => d.id === minutesId)!;
    expect(minutes.versions[0]!.file).toBe('versions/Governance/Council minutes (version 1).txt');
  });

  it('keeps exports from users, other organisations and the anonymous', async () => {
    const [row] = (await exportsOf(admin)).filter((e) => e.status === 'ready');
    expect(await exportsOf(user)).toEqual([]);
    expect(await exportsOf(other.master)).toEqual([]);
    for (const person of [user, other.master]) {
      const { error } = await person.client.storage.from('exports').download(row!.file_path!);
      expect(error).not.toBeNull();
    }
    const anonymous = await server.anon().storage.from('exports').download(row!.file_path!);
    expect(anonymous.error).not.toBeNull();
    // Nobody writes to the exports bucket through the API, admins included.
    const write = await admin.client.storage
      .from('exports')
      .upload(`${church.id}/forged.zip`, new Uint8Array([1]), { contentType: 'application/zip' });
    expect(write.error).not.toBeNull();
  });

  it('exports an organisation without documents as a ZIP with an empty manifest', async () => {
    const empty = await createOrganisation(server, 'Empty Church');
    const row = await exportAs(empty.master, true);
    expect(row).toMatchObject({ status: 'ready', document_count: 0 });
    const files = await download(empty.master, row);
    expect([...files.keys()].sort()).toEqual(['manifest.csv', 'manifest.json']);
    expect(manifestOf(files).documents).toEqual([]);
    expect(files.get('manifest.csv')!.toString('utf8').split('\r\n')).toHaveLength(2);
  });

  it('starts again from scratch after a crash in the middle of an export', async () => {
    const started = unwrap(
      await admin.client.rpc('start_organization_export').single<ExportRow>(),
      'start',
    );
    // A runner took the job, wrote part of the ZIP and died: its lease has passed.
    const partial = fileStore().scratchFile(started.id);
    await import('node:fs/promises').then(({ mkdir }) =>
      mkdir(path.dirname(partial), { recursive: true }),
    );
    await writeFile(partial, randomBytes(5000));
    await server.db.serverWork().query(
      `update private.jobs set attempts = 1, locked_by = 'crashed-runner',
         locked_until = now() - interval '1 second'
       where kind = 'organization.export' and payload ->> 'export_id' = $1`,
      [started.id],
    );
    await server.db
      .serverWork()
      .query(
        `update public.organization_exports set status = 'running', progress = 40 where id = $1`,
        [started.id],
      );
    await runJobs();
    const row = (await exportsOf(admin)).find((e) => e.id === started.id)!;
    expect(row).toMatchObject({ status: 'ready', progress: 100, document_count: 3 });
    const files = await download(admin, row);
    expect(files.get('HR/Caretaker contract.pdf')!.equals(bytes.contract)).toBe(true);
    expect((await storedFiles()).filter((name) => name.endsWith('.part'))).toEqual([]);
    const { rows } = await server.db
      .serverWork()
      .query<{ attempts: number }>(
        `select attempts from private.jobs where payload ->> 'export_id' = $1`,
        [started.id],
      );
    expect(rows[0]!.attempts).toBe(2);
  });

  it('keeps only the latest export: the earlier ones go when it is ready, outside the quota', async () => {
    const ready = (await exportsOf(admin)).filter((e) => e.status === 'ready');
    expect(ready).toHaveLength(1);
    const earlier = (await exportsOf(admin)).filter((e) => e.status === 'expired');
    expect(earlier.length).toBe(2);
    for (const row of earlier) expect(row.file_path).toBeNull();
    const { rows } = await server.db.serverWork().query<{ count: number }>(
      `select count(*)::int as count from storage.objects
       where bucket_id = 'exports' and name like $1 || '/%'`,
      [church.id],
    );
    expect(rows[0]!.count).toBe(1);
    const usage = unwrap(
      await church.master.client
        .rpc('organization_storage_usage')
        .single<{ used_bytes: number; export_bytes: number }>(),
      'usage',
    );
    expect(usage.export_bytes).toBe(ready[0]!.size);
    // Not counted: the documents and their versions are.
    const holdings = await server.db
      .serverWork()
      .query<{ bytes: string }>(`select private.organization_storage_bytes($1) as bytes`, [
        church.id,
      ]);
    expect(usage.used_bytes).toBe(Number(holdings.rows[0]!.bytes));
    await runJobs();
    // The earlier files' bytes are removed by the job the database queued.
    for (const row of earlier) {
      expect(await fileStore().sizeOf(row.id)).toBeNull();
    }
  });

  it('removes an export once its time is over', async () => {
    const before = (await exportsOf(admin)).filter((e) => e.status === 'ready');
    expect(before.length).toBe(1);
    clock.advance(2 * DAY + 2 * 3_600_000);
    await server.jobs.runDue();
    const after = await exportsOf(admin);
    expect(after.filter((e) => e.status === 'ready')).toEqual([]);
    expect(after.find((e) => e.id === before[0]!.id)?.status).toBe('expired');
    const { error } = await admin.client.storage.from('exports').download(before[0]!.file_path!);
    expect(error).not.toBeNull();
  });

  it('imports an export into a new organisation: documents, properties, tags, expiry dates and bytes', async () => {
    const row = await exportAs(admin, true);
    const zip = (await admin.client.storage.from('exports').download(row.file_path!)).data!;
    const target = await createOrganisation(server, 'New Church');
    const { row: imported, name } = await importAs(
      target.master,
      target,
      new Uint8Array(await zip.arrayBuffer()),
    );
    expect(imported).toMatchObject({ status: 'done', document_count: 3, error: null });

    const documents = unwrap(
      await target.master.client
        .from('documents')
        .select(
          'name, category, expiry_date, tags, description, size, file_path, responsible_id, uploaded_by',
        )
        .order('name'),
      'documents',
    ) as {
      name: string;
      category: string;
      expiry_date: string | null;
      tags: string[];
      description: string | null;
      size: number;
      file_path: string;
      responsible_id: string;
      uploaded_by: string;
    }[];
    expect(
      documents.map(({ name, category, expiry_date, tags, description }) => ({
        name,
        category,
        expiry_date,
        tags,
        description,
      })),
    ).toEqual([
      {
        name: 'Caretaker contract.pdf',
        category: 'HR',
        expiry_date: '2027-03-31',
        tags: ['staff', 'contract'],
        description: 'Signed in March',
      },
      {
        name: 'Council minutes.txt',
        category: 'Governance',
        expiry_date: null,
        tags: ['council'],
        description: null,
      },
      {
        name: 'Volunteer rota.csv',
        category: 'Volunteer/People Management',
        expiry_date: null,
        tags: [],
        description: null,
      },
    ]);
    // The responsible members are not members here: the importing admin stands in.
    expect(new Set(documents.map((d) => d.responsible_id))).toEqual(
      new Set([target.master.userId]),
    );
    expect(new Set(documents.map((d) => d.uploaded_by))).toEqual(new Set([target.master.userId]));
    const contract = await target.master.client.storage
      .from('documents')
      .download(documents[0]!.file_path);
    expect(Buffer.from(await contract.data!.arrayBuffer()).equals(bytes.contract)).toBe(true);
    expect(documents[0]!.size).toBe(bytes.contract.byteLength);

    // The uploaded ZIP is gone; the history names the import.
    const { rows } = await server.db
      .serverWork()
      .query<{ count: number }>(
        `select count(*)::int as count from storage.objects where bucket_id = 'imports' and name = $1`,
        [name],
      );
    expect(rows[0]!.count).toBe(0);
    const kinds = await server.db.serverWork().query<{ kind: string; actor_id: string | null }>(
      `select kind, actor_id from public.activity_log where organization_id = $1
         and kind in ('organization.import_started', 'organization.imported') order by id`,
      [target.id],
    );
    expect(kinds.rows).toEqual([
      { kind: 'organization.import_started', actor_id: target.master.userId },
      { kind: 'organization.imported', actor_id: target.master.userId },
    ]);
  });

  it('keeps the responsible member when they are a member of the organisation imported into', async () => {
    const row = await exportAs(admin, false);
    const zip = (await admin.client.storage.from('exports').download(row.file_path!)).data!;
    const before = await holdings(church);
    const { row: imported } = await importAs(
      admin,
      church,
      new Uint8Array(await zip.arrayBuffer()),
    );
    expect(imported).toMatchObject({ status: 'done', document_count: 3 });
    expect((await holdings(church)).documents).toBe(before.documents + 3);
    const { rows } = await server.db.serverWork().query<{ responsible_id: string }>(
      `select responsible_id from public.documents
       where organization_id = $1 and name = 'Caretaker contract.pdf' and deleted_at is null`,
      [church.id],
    );
    expect(rows.map((r) => r.responsible_id)).toEqual([user.userId, user.userId]);
  });

  it('lets only admins import, and only files of their own folder', async () => {
    const refused = await user.client.rpc('start_organization_import', {
      file_path: `${church.id}/x.zip`,
    });
    expect(refused.error?.message).toBe('Only admins can import documents');
    const upload = await user.client.storage
      .from('imports')
      .upload(`${church.id}/by-user.zip`, new Uint8Array([1]), { contentType: 'application/zip' });
    expect(upload.error).not.toBeNull();
    const elsewhere = await admin.client.rpc('start_organization_import', {
      file_path: `${other.id}/x.zip`,
    });
    expect(elsewhere.error?.message).toBe('The file to import has not been uploaded');
  });

  const manifestFor = (documents: unknown[]) =>
    Buffer.from(JSON.stringify({ format: 'steward-organization-export', version: 1, documents }));
  const document = (file: string) => ({
    name: 'Letter.txt',
    category: 'Other',
    expiry_date: null,
    tags: [],
    description: null,
    file,
  });

  async function zipOf(entries: { name: string; data: Buffer; compress?: boolean }[]) {
    const zip = new ZipFile();
    for (const entry of entries) {
      zip.addBuffer(entry.data, entry.name, { compress: entry.compress ?? true });
    }
    zip.end();
    return buffer(zip.outputStream);
  }

  const hostile: [string, () => Promise<Uint8Array> | Uint8Array, RegExp][] = [
    ['a file that is not a ZIP', () => randomBytes(4000), /^The file is not a valid ZIP archive$/],
    [
      'a ZIP cut short',
      async () => {
        const zip = await zipOf([{ name: 'manifest.json', data: manifestFor([]) }]);
        return zip.subarray(0, zip.byteLength - 30);
      },
      /^The file is not a valid ZIP archive$/,
    ],
    [
      "another product's ZIP",
      () => zipOf([{ name: 'readme.txt', data: Buffer.from('hello') }]),
      /^This ZIP is not a Steward export \(its manifest.json is missing or invalid\)$/,
    ],
    [
      'a manifest of another format',
      () => zipOf([{ name: 'manifest.json', data: Buffer.from('{"format":"paperless"}') }]),
      /^This ZIP is not a Steward export/,
    ],
    [
      'a manifest naming a file that is not in the ZIP',
      () => zipOf([{ name: 'manifest.json', data: manifestFor([document('Other/Letter.txt')]) }]),
      /^Document 1 of manifest.json is invalid: its file is not in the ZIP$/,
    ],
    [
      'a path with ..',
      () =>
        rawZip([
          { name: 'manifest.json', data: manifestFor([document('../../etc/Letter.txt')]) },
          { name: '../../etc/Letter.txt', data: Buffer.from('x') },
        ]),
      /^The ZIP contains an unsafe file name/,
    ],
    [
      'an absolute path',
      () =>
        rawZip([
          { name: 'manifest.json', data: manifestFor([document('/tmp/Letter.txt')]) },
          { name: '/tmp/Letter.txt', data: Buffer.from('x') },
        ]),
      /^The ZIP contains an unsafe file name/,
    ],
    [
      'a ZIP bomb (compressed too well)',
      () =>
        zipOf([
          { name: 'manifest.json', data: manifestFor([document('Other/Letter.txt')]) },
          { name: 'Other/Letter.txt', data: Buffer.alloc(20 * 1024 ** 2) },
        ]),
      /^The ZIP looks like a ZIP bomb/,
    ],
    [
      'a ZIP declaring more than the limit unpacked',
      () =>
        rawZip([
          { name: 'manifest.json', data: manifestFor([document('Other/Letter.txt')]) },
          {
            name: 'Other/Letter.txt',
            data: Buffer.from('x'),
            deflate: true,
            declaredSize: 0xfffffff0,
          },
        ]),
      /^The ZIP unpacks to more than the import limit allows$/,
    ],
    [
      'a ZIP whose entry unpacks to more than it declares',
      () =>
        rawZip([
          { name: 'manifest.json', data: manifestFor([document('Other/Letter.txt')]) },
          {
            name: 'Other/Letter.txt',
            data: Buffer.alloc(200_000, 'a'),
            deflate: true,
            declaredSize: 100,
          },
        ]),
      /^The ZIP archive is damaged/,
    ],
    [
      'a ZIP with too many entries',
      () =>
        zipOf([
          { name: 'manifest.json', data: manifestFor([]) },
          ...Array.from({ length: 41 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') })),
        ]),
      /^The ZIP holds more than 40 files$/,
    ],
  ];

  for (const [label, make, message] of hostile) {
    it(`refuses ${label} with a clear message and writes nothing`, async () => {
      const target = await createOrganisation(server, `Target ${label}`);
      const filesBefore = await storedFiles();
      const { row } = await importAs(target.master, target, await make());
      expect(row.status).toBe('failed');
      expect(row.error).toMatch(message);
      expect(await holdings(target)).toEqual({ documents: 0, objects: 0 });
      // No file left behind in the store: the uploaded ZIP is removed too.
      expect(await storedFiles()).toEqual(filesBefore);
    });
  }

  /** Runs `work` while measuring the bytes in the file store; returns the most seen at once. */
  async function peakStoredBytes(work: () => Promise<unknown>): Promise<number> {
    const total = async () =>
      (await fileStore().inventory()).reduce((sum, entry) => sum + entry.bytes, 0);
    let peak = await total();
    let running = true;
    const watching = (async () => {
      while (running) peak = Math.max(peak, await total());
    })();
    try {
      await work();
    } finally {
      running = false;
      await watching;
    }
    return Math.max(peak, await total());
  }

  /** A ZIP with one MiB of zeros that every document of a long manifest names (R3). */
  const oneEntryNamedOften = (documents: number) =>
    zipOf([
      {
        name: 'manifest.json',
        data: manifestFor(
          Array.from({ length: documents }, (_, i) => ({
            ...document('Other/zeros.bin'),
            name: `Copy ${i + 1}.bin`,
          })),
        ),
      },
      { name: 'Other/zeros.bin', data: Buffer.alloc(1024 ** 2) },
    ]);

  it('counts a file each time a document names it, and stops at the unpack limit before writing past it', async () => {
    const target = await createOrganisation(server, 'Bomb Church');
    const zip = await oneEntryNamedOften(600);
    expect(zip.byteLength).toBeLessThan(10_000);
    const filesBefore = await storedFiles();
    let result: Awaited<ReturnType<typeof importAs>> | undefined;
    const peak = await peakStoredBytes(async () => {
      result = await importAs(target.master, target, zip);
    });
    expect(result!.row).toMatchObject({
      status: 'failed',
      error: 'The ZIP unpacks to more than the import limit allows',
    });
    // The limit is 30 MiB; 600 MiB was named.
    expect(peak).toBeLessThan(31 * 1024 ** 2);
    expect(await holdings(target)).toEqual({ documents: 0, objects: 0 });
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('stops at the first file past the storage quota, not after writing them all', async () => {
    const target = await createOrganisation(server, 'Crowded Church');
    await server.db
      .serverWork()
      .query(`update private.storage_settings set quota_per_organization = $1`, [5 * 1024 ** 2]);
    try {
      const zip = await oneEntryNamedOften(20);
      const filesBefore = await storedFiles();
      let result: Awaited<ReturnType<typeof importAs>> | undefined;
      const peak = await peakStoredBytes(async () => {
        result = await importAs(target.master, target, zip);
      });
      expect(result!.row).toMatchObject({
        status: 'failed',
        error: "Your organization's storage is full (quota: 5120 kB)",
      });
      expect(peak).toBeLessThan(5.5 * 1024 ** 2);
      expect(await holdings(target)).toEqual({ documents: 0, objects: 0 });
      expect(await storedFiles()).toEqual(filesBefore);
    } finally {
      await server.db
        .serverWork()
        .query(`update private.storage_settings set quota_per_organization = 10737418240`);
    }
  });

  it('refuses a manifest.json past its size or document limit before unpacking anything', async () => {
    const target = await createOrganisation(server, 'Long List Church');
    const filesBefore = await storedFiles();
    const tooMany = await importAs(target.master, target, await oneEntryNamedOften(1001));
    expect(tooMany.row).toMatchObject({
      status: 'failed',
      error: 'The manifest.json of this ZIP lists more than 1000 documents',
    });
    const padded = await zipOf([
      {
        name: 'manifest.json',
        data: manifestFor(
          Array.from({ length: 30 }, (_, i) => ({
            ...document('Other/Letter.txt'),
            name: `Letter ${i}.txt`,
            description: 'x'.repeat(10_000),
          })),
        ),
      },
      { name: 'Other/Letter.txt', data: Buffer.from('x') },
    ]);
    const tooLarge = await importAs(target.master, target, padded);
    expect(tooLarge.row).toMatchObject({
      status: 'failed',
      error: 'The manifest.json of this ZIP is too large',
    });
    expect(await holdings(target)).toEqual({ documents: 0, objects: 0 });
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('removes the files of an attempt whose thread was stopped before trying again', async () => {
    const target = await createOrganisation(server, 'Stopped Church');
    const name = `${target.id}/${randomBytes(6).toString('hex')}.zip`;
    const filesBefore = await storedFiles();
    unwrap(
      await target.master.client.storage
        .from('imports')
        .upload(
          name,
          await zipOf([{ name: 'manifest.json', data: Buffer.from('{"format":"other"}') }]),
          { contentType: 'application/zip' },
        ),
      'upload import',
    );
    const started = unwrap(
      await target.master.client
        .rpc('start_organization_import', { file_path: name })
        .single<ImportRow>(),
      'start_organization_import',
    );
    // A runner took the job, unpacked three files and part of a fourth, and was stopped.
    const store = fileStore();
    for (let index = 0; index < 3; index++) {
      const bytes = randomBytes(1000);
      await store.write(Readable.from([bytes]), bytes.length, importFileVersion(started.id, index));
    }
    // The fourth was still being written (on disk, its temporary file).
    const partial = store.scratchFile(importFileVersion(started.id, 3));
    await mkdir(path.dirname(partial), { recursive: true });
    await writeFile(partial, randomBytes(1000));
    await server.db.serverWork().query(
      `update private.jobs set attempts = 1, locked_by = 'stopped-runner',
         locked_until = now() - interval '1 second'
       where kind = 'organization.import' and payload ->> 'import_id' = $1`,
      [started.id],
    );
    await runJobs();
    const row = unwrap(
      await target.master.client
        .from('organization_imports')
        .select('*')
        .eq('id', started.id)
        .single(),
      'import row',
    ) as ImportRow;
    expect(row).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^This ZIP is not a Steward export/),
    });
    // Neither the stopped attempt's files nor the uploaded ZIP are left.
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('counts the uploaded ZIP until it is imported, then only the documents', async () => {
    const target = await createOrganisation(server, 'Roomy Church');
    await server.db
      .serverWork()
      .query(`update private.storage_settings set quota_per_organization = 8000`);
    try {
      const zip = await zipOf([
        {
          name: 'manifest.json',
          data: manifestFor([
            document('Other/a.bin'),
            { ...document('Other/b.bin'), name: 'b.bin' },
          ]),
        },
        { name: 'Other/a.bin', data: randomBytes(3000), compress: false },
        { name: 'Other/b.bin', data: randomBytes(3000), compress: false },
      ]);
      // The ZIP (over 6,000 bytes) and its documents (6,000) do not fit together; the ZIP goes
      // with the import's transaction.
      expect(zip.byteLength + 6000).toBeGreaterThan(8000);
      const { row } = await importAs(target.master, target, zip);
      expect(row).toMatchObject({ status: 'done', document_count: 2 });
      const usage = unwrap(
        await target.master.client
          .rpc('organization_storage_usage')
          .single<{ used_bytes: number; imports_bytes: number }>(),
        'usage',
      );
      expect(usage).toMatchObject({ used_bytes: 6000, imports_bytes: 0 });
    } finally {
      await server.db
        .serverWork()
        .query(`update private.storage_settings set quota_per_organization = 10737418240`);
    }
  });

  it('refuses an import that does not fit the storage quota, writing nothing', async () => {
    const target = await createOrganisation(server, 'Full Church');
    await server.db
      .serverWork()
      .query(`update private.storage_settings set quota_per_organization = 4000`);
    try {
      // A small ZIP (it counts too) whose documents need 6,000 bytes.
      const zip = await zipOf([
        {
          name: 'manifest.json',
          data: manifestFor([
            document('Other/a.txt'),
            { ...document('Other/b.txt'), name: 'b.txt' },
          ]),
        },
        { name: 'Other/a.txt', data: Buffer.alloc(3000, 'a') },
        { name: 'Other/b.txt', data: Buffer.alloc(3000, 'b') },
      ]);
      expect(zip.byteLength).toBeLessThan(1000);
      const filesBefore = await storedFiles();
      const { row } = await importAs(target.master, target, zip);
      expect(row).toMatchObject({ status: 'failed' });
      expect(row.error).toMatch(/^Your organization's storage is full/);
      expect(await holdings(target)).toEqual({ documents: 0, objects: 0 });
      expect(await storedFiles()).toEqual(filesBefore);
    } finally {
      await server.db
        .serverWork()
        .query(`update private.storage_settings set quota_per_organization = 10737418240`);
    }
  });
});
