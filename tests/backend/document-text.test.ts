import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { recordingHandle, wrapHandles } from '../support/db-handles.ts';
import { ManualClock } from '../../server/jobs/clock.ts';
import { JobRunner } from '../../server/jobs/job-runner.ts';
import { openFileStore } from '../../server/storage/open-file-store.ts';
import { EXTRACT_TEXT_JOB, extractTextJob } from '../../server/search/extract-text-job.ts';
import { startTextExtraction } from '../../server/search/text-extraction-start.ts';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { textStateOf, uploadDocument } from '../support/documents.ts';
import { scannedCertificatePng, scannedPdf, textPdf } from '../support/sample-files.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// The text of every document, read in the background: queued by the database at upload and at
// every new version of the file, read once per version in the CPU pool, recorded with its state
// for the members to see, failures recorded and tried again, nothing lost across a restart.
// The server's own runner is held back (a poll interval of an hour); each case runs the due jobs.
describe('document text in the background', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  const runners: JobRunner[] = [];

  const search = async (who: Person, text: string) =>
    unwrap(await who.client.rpc('search_documents', { search: text }), `search ${text}`) as {
      id: string;
      name: string;
      snippet: string | null;
      text_state: string;
    }[];

  const jobsOf = async (documentId: string) =>
    (
      await server.db.serverWork().query<{
        attempts: number;
        finished: boolean;
        failed: boolean;
        last_error: string | null;
      }>(
        `select attempts, finished_at is not null as finished, failed_at is not null as failed, last_error
           from private.jobs where payload ->> 'document_id' = $1 order by id`,
        [documentId],
      )
    ).rows;

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Text Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, church, 'user');
  });
  beforeEach(() => server.jobs.runDue());
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    await server?.close();
  });

  it('reads a new document once and lets the organisation find it by words inside it', async () => {
    const doc = await uploadDocument(member, church.id, {
      name: 'scan-0042.png',
      bytes: scannedCertificatePng(),
      contentType: 'image/png',
    });
    expect(await textStateOf(member, doc.id)).toMatchObject({ state: 'pending' });
    expect(await search(member, 'Lakeside')).toEqual([]);

    await server.jobs.runDue();
    expect(await textStateOf(member, doc.id)).toEqual({
      state: 'ready',
      reason: null,
      truncated: false,
      pages: null,
    });
    const found = await search(member, 'lakeside retreat');
    expect(found.map((d) => d.id)).toEqual([doc.id]);
    expect(found[0]!.snippet).toContain('<mark>Lakeside</mark>');
    // Once per version: nothing is queued again.
    expect(await jobsOf(doc.id)).toEqual([
      { attempts: 1, finished: true, failed: false, last_error: null },
    ]);
    // Other organisations neither find it nor see its text.
    expect(await search(other.master, 'lakeside')).toEqual([]);
    expect(await textStateOf(other.master, doc.id)).toBeNull();
  }, 120_000);

  it('reads the file again when its content changes, and forgets the old words', async () => {
    const doc = await uploadDocument(member, church.id, {
      name: 'notices.txt',
      bytes: 'Harvest supper on Saturday',
      contentType: 'text/plain;charset=UTF-8',
    });
    await server.jobs.runDue();
    expect((await search(member, 'harvest')).map((d) => d.id)).toEqual([doc.id]);

    // The edit is stored as a new upload and made the document's file, as the editor saves it.
    const edited = `documents/${church.id}/${Date.now()}-edited.txt`;
    const upload = await member.client.storage
      .from('documents')
      .upload(edited, Buffer.from('Carol service on Sunday'), {
        contentType: 'text/plain;charset=UTF-8',
      });
    expect(upload.error).toBeNull();
    const replaced = await member.client.rpc('replace_document_file', {
      document_id: doc.id,
      file_path: edited,
      change: 'content_edit',
    });
    expect(replaced.error).toBeNull();
    expect(await textStateOf(member, doc.id)).toMatchObject({ state: 'pending' });
    await server.jobs.runDue();
    expect(await textStateOf(member, doc.id)).toMatchObject({ state: 'ready' });
    expect((await search(member, 'carol')).map((d) => d.id)).toEqual([doc.id]);
    expect(await search(member, 'harvest')).toEqual([]);
    expect((await jobsOf(doc.id)).map((j) => j.finished)).toEqual([true, true]);
  });

  // The job's own work is two calls of the database in the organisation's lane: the document's
  // read, then its text recorded in one transaction with the job marked done (on PGlite one
  // message to the worker each), where it was three (the record and the job's end apart).
  it('reads a file in two calls of the database: the document, then its text with the job’s end', async () => {
    const doc = await uploadDocument(member, church.id, {
      name: 'rota.txt',
      bytes: 'Flower rota for Advent',
      contentType: 'text/plain;charset=UTF-8',
    });
    const calls: string[] = [];
    const restore = wrapHandles(server.db, (handle) =>
      recordingHandle(handle, (call) => {
        if (handle.scope?.lane === `job:${church.id}`) calls.push(call);
      }),
    );
    // The reading itself takes the organisation's turn of the background processes too.
    const pool = server.backgroundProcesses;
    const run = pool.run.bind(pool);
    const lanes: string[] = [];
    pool.run = ((name, args, options) => {
      lanes.push(options.lane);
      return run(name, args, options);
    }) as typeof pool.run;
    try {
      await server.jobs.runDue();
    } finally {
      restore();
      pool.run = run;
    }
    expect(calls).toEqual(['query', 'write, then commit']);
    expect(lanes).toEqual([`job:${church.id}`]);
    expect(await textStateOf(member, doc.id)).toMatchObject({ state: 'ready' });
    expect((await search(member, 'advent')).map((d) => d.id)).toEqual([doc.id]);
    expect((await jobsOf(doc.id)).map((j) => j.finished)).toEqual([true]);
  });

  it('records why a file has no text, without holding up the others', async () => {
    const broken = await uploadDocument(member, church.id, {
      name: 'broken.pdf',
      bytes: '%PDF-1.7\nnot a real PDF',
      contentType: 'application/pdf',
    });
    const empty = await uploadDocument(member, church.id, { name: 'empty.txt', bytes: '' });
    const fine = await uploadDocument(member, church.id, {
      name: 'agenda.pdf',
      bytes: await textPdf(['Agenda: the boiler replacement']),
      contentType: 'application/pdf',
    });
    await server.jobs.runDue();
    expect(await textStateOf(member, broken.id)).toMatchObject({
      state: 'unavailable',
      reason: 'The PDF is damaged and cannot be read',
    });
    expect(await textStateOf(member, empty.id)).toMatchObject({
      state: 'unavailable',
      reason: 'The file is empty',
    });
    expect(await textStateOf(member, fine.id)).toMatchObject({ state: 'ready', pages: 1 });
    expect((await search(member, 'boiler')).map((d) => d.id)).toEqual([fine.id]);
    // A file without text is final: not retried.
    expect(await jobsOf(broken.id)).toEqual([
      { attempts: 1, finished: true, failed: false, last_error: null },
    ]);
    // The document itself is untouched, and found by its name.
    expect((await search(member, 'broken')).map((d) => d.id)).toEqual([broken.id]);
  });

  it('records a failed attempt with its reason and tries again later', async () => {
    const clock = new ManualClock(new Date(Date.now() + 60_000));
    const runner = (timeoutMs: number) => {
      const made = new JobRunner({
        db: server.db,
        clock,
        kinds: {
          [EXTRACT_TEXT_JOB]: extractTextJob({
            pool: server.backgroundProcesses,
            store: openFileStore(server.dataDir, server.config.storage.objects),
            settings: { ...readConfig({}).textExtraction, timeoutMs },
          }),
        },
        concurrency: 1,
        pollIntervalMs: 3_600_000,
      });
      runners.push(made);
      return made;
    };
    const doc = await uploadDocument(member, church.id, {
      name: 'certificate.png',
      bytes: scannedCertificatePng(),
      contentType: 'image/png',
    });
    // Too little time for OCR: the attempt is stopped, recorded, and scheduled again.
    await runner(1).runDue();
    expect(await textStateOf(member, doc.id)).toMatchObject({
      state: 'failed',
      reason: 'Reading the file failed: the job took longer than 1 ms; it is tried again later',
    });
    expect(await jobsOf(doc.id)).toEqual([
      {
        attempts: 1,
        finished: false,
        failed: false,
        last_error: 'the job took longer than 1 ms',
      },
    ]);
    // Not before its time: a minute later it is still waiting.
    const patient = runner(120_000);
    await patient.runDue();
    expect((await jobsOf(doc.id))[0]!.attempts).toBe(1);
    clock.advance(60_000);
    await patient.runDue();
    expect(await textStateOf(member, doc.id)).toMatchObject({ state: 'ready', reason: null });
    expect((await search(member, 'policy 4471')).map((d) => d.id)).toContain(doc.id);
    expect(await jobsOf(doc.id)).toEqual([
      { attempts: 2, finished: true, failed: false, last_error: null },
    ]);
  }, 120_000);

  it('indexes documents that existed before extraction was turned on, at the next start', async () => {
    // As before the upgrade: extraction off, so new documents are not queued.
    await server.db
      .serverWork()
      .query(`update private.text_extraction_settings set enabled = false`);
    const old = await uploadDocument(member, church.id, {
      name: 'old-lease.txt',
      bytes: 'Lease of the scout hut',
      contentType: 'text/plain;charset=UTF-8',
    });
    // Made by an older version of the server, before the text table existed at all.
    const older = await uploadDocument(member, church.id, {
      name: 'older.txt',
      bytes: 'Bell ringers rota',
      contentType: 'text/plain;charset=UTF-8',
    });
    await server.db
      .serverWork()
      .query(`delete from public.document_texts where document_id = $1`, [older.id]);
    expect(await textStateOf(member, old.id)).toMatchObject({
      state: 'unavailable',
      reason: 'Text extraction does not run on this installation',
    });
    expect(await jobsOf(old.id)).toEqual([]);

    // The start of the upgraded server.
    expect(await startTextExtraction(server.db.serverWork())).toBeGreaterThanOrEqual(2);
    expect(await textStateOf(member, old.id)).toMatchObject({ state: 'pending' });
    await server.jobs.runDue();
    expect((await search(member, 'scout hut')).map((d) => d.id)).toEqual([old.id]);
    expect((await search(member, 'bell ringers')).map((d) => d.id)).toEqual([older.id]);
    // A second start queues nothing that is done.
    await startTextExtraction(server.db.serverWork());
    expect(await jobsOf(old.id)).toHaveLength(1);
  });

  it('looks over a library larger than one batch at start, missing none', async () => {
    await server.db
      .serverWork()
      .query(`update private.text_extraction_settings set enabled = false`);
    const big = await createOrganisation(server, 'Big Library Church');
    await server.db.serverWork().query(
      `insert into public.documents (organization_id, name, category, file_path)
       select $1::uuid, 'Minutes ' || n, 'Reports', 'documents/' || $1::text || '/' || n || '.txt'
       from generate_series(1, 1203) n`,
      [big.id],
    );
    await server.db.serverWork().query(
      `delete from public.document_texts t using public.documents d
        where d.id = t.document_id and d.organization_id = $1`,
      [big.id],
    );
    expect(await startTextExtraction(server.db.serverWork())).toBeGreaterThanOrEqual(1203);
    const { rows } = await server.db.serverWork().query<{ queued: number }>(
      `select count(*)::integer as queued from private.jobs
        where kind = 'document.extract-text' and organization_id = $1`,
      [big.id],
    );
    expect(rows[0]!.queued).toBe(1203);
    // Their files do not exist: left queued, 1,203 jobs would hold up the next test's runs.
    await server.db
      .serverWork()
      .query(`delete from private.jobs where organization_id = $1`, [big.id]);
  });

  it('survives a stop in the middle of reading: the next runner reads the file', async () => {
    const clock = new ManualClock(new Date(Date.now() + 60_000));
    const make = () => {
      const made = new JobRunner({
        db: server.db,
        clock,
        kinds: {
          [EXTRACT_TEXT_JOB]: extractTextJob({
            pool: server.backgroundProcesses,
            store: openFileStore(server.dataDir, server.config.storage.objects),
            settings: readConfig({}).textExtraction,
          }),
        },
        concurrency: 1,
        pollIntervalMs: 3_600_000,
      });
      runners.push(made);
      return made;
    };
    // Eight scanned pages: seconds of OCR, so the stop comes while it is being read.
    const doc = await uploadDocument(member, church.id, {
      name: 'scanned-minutes.pdf',
      bytes: await scannedPdf(8),
      contentType: 'application/pdf',
    });
    const first = make();
    first.start();
    first.wake();
    // Stopped once the job is claimed: the attempt is abandoned, not lost.
    for (let claimed = false; !claimed;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows } = await server.db
        .serverWork()
        .query<{ locked: boolean }>(
          `select locked_by is not null as locked from private.jobs where payload ->> 'document_id' = $1`,
          [doc.id],
        );
      claimed = rows[0]?.locked === true;
    }
    await first.stop();
    const [job] = await jobsOf(doc.id);
    expect(job).toMatchObject({ finished: false, failed: false });

    // The restarted server's runner, once the retry is due.
    clock.advance(10 * 60_000);
    await make().runDue();
    expect(await textStateOf(member, doc.id)).toMatchObject({ state: 'ready' });
    expect((await search(member, 'lakeside')).map((d) => d.id)).toContain(doc.id);
  }, 120_000);

  it('counts the vectors kept out of line of new documents, writing the total only when it changes', async () => {
    // private.search_vector_bytes, which search_documents reads to choose how to search (no row
    // reads as 0): a new document's text row is counted as stored, and an insert that adds no
    // out-of-line bytes does not write its organisation's total (migration 20261209000200).
    const parish = await createOrganisation(server, 'Vector Bytes Church');
    const writer = await addMember(server, parish, 'user');
    const total = async () =>
      (
        await server.db
          .serverWork()
          .query<{ bytes: string; version: string }>(
            'select bytes::text, xmin::text as version from private.search_vector_bytes where organization_id = $1',
            [parish.id],
          )
      ).rows[0] ?? null;
    const counted = async () =>
      (
        await server.db.serverWork().query<{ bytes: string }>(
          `select coalesce(sum(pg_column_size(search_vector))
                             filter (where pg_column_size(search_vector) > 2048), 0)::text as bytes
             from public.document_texts where organization_id = $1`,
          [parish.id],
        )
      ).rows[0]!.bytes;
    const insert = async (name: string, description: string) =>
      unwrap(
        await writer.client.from('documents').insert({
          organization_id: parish.id,
          name,
          category: 'Reports',
          size: 10,
          file_path: `documents/${parish.id}/${name}`,
          status: 'Active',
          description,
        }),
        `insert ${name}`,
      );
    // 1,200 different words: a vector of several kilobytes, kept out of the row.
    const register = Array.from(
      { length: 1200 },
      (_, i) => `w${((i * 7919) % 1_000_003).toString(36)}`,
    ).join(' ');

    await insert('agenda.pdf', 'Agenda of the vestry meeting');
    expect(await total()).toBeNull();
    await insert('register.pdf', register);
    const first = await total();
    expect(Number(first?.bytes)).toBeGreaterThan(2048);
    expect(first?.bytes).toBe(await counted());
    await insert('notice.pdf', 'Notice of the annual meeting');
    expect(await total()).toEqual(first);
    expect(first?.bytes).toBe(await counted());
  });
});
