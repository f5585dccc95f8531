import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordingHandle, wrapHandles } from '../support/db-handles.ts';
import { ManualClock } from '../../server/jobs/clock.ts';
import { enqueueJob } from '../../server/jobs/job-queries.ts';
import type { JobKind } from '../../server/jobs/job-runner.ts';
import { JobRunner } from '../../server/jobs/job-runner.ts';
import { Scheduler, everyMinutes } from '../../server/jobs/scheduler.ts';
import { createOrganisation, type Organisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Background work (server/jobs/): durable jobs claimed with a lease, retried with a limit,
// never run twice at once, taking turns between organisations; schedules that run once when
// due, also after downtime and with two runners. The clock is moved by hand.
describe('background jobs', () => {
  let server: TestServer;
  let churchA: Organisation;
  let churchB: Organisation;
  let clock: ManualClock;
  const runners: JobRunner[] = [];

  function runner(kinds: Record<string, JobKind>, concurrency = 1): JobRunner {
    const made = new JobRunner({
      db: server.db,
      clock,
      kinds,
      concurrency,
      pollIntervalMs: 60_000,
    });
    runners.push(made);
    return made;
  }

  const jobRow = async (id: number | null) =>
    (
      await server.db.serverWork().query<{
        attempts: number;
        finished_at: string | null;
        failed_at: string | null;
        last_error: string | null;
      }>(`select attempts, finished_at, failed_at, last_error from private.jobs where id = $1`, [id])
    ).rows[0]!;

  beforeAll(async () => {
    server = await startTestServer();
    churchA = await createOrganisation(server, 'Jobs Church A');
    churchB = await createOrganisation(server, 'Jobs Church B');
  });
  beforeEach(async () => {
    // Each case on its own: earlier cases' jobs are done, or removed here.
    await server.db.serverWork().query(`delete from private.jobs`);
    clock = new ManualClock(new Date(Date.now() + 60_000));
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await server?.close();
  });

  it('runs a due job once, and a later one only when its time has come', async () => {
    const seen: string[] = [];
    const kinds = {
      'test.note': { handle: async (job) => void seen.push(String(job.payload.note)) },
    } satisfies Record<string, JobKind>;
    const now = await enqueueJob(server.db.serverWork(), {
      kind: 'test.note',
      payload: { note: 'now' },
      runAfter: clock.now(),
    });
    const later = await enqueueJob(server.db.serverWork(), {
      kind: 'test.note',
      payload: { note: 'later' },
      runAfter: new Date(clock.now().getTime() + 3_600_000),
    });
    const jobs = runner(kinds);
    await jobs.runDue();
    expect(seen).toEqual(['now']);
    expect((await jobRow(now)).finished_at).not.toBeNull();
    expect((await jobRow(later)).finished_at).toBeNull();

    clock.advance(3_600_000);
    await jobs.runDue();
    await jobs.runDue();
    expect(seen).toEqual(['now', 'later']);
  });

  it('keeps one pending job per dedupe key', async () => {
    const first = await enqueueJob(server.db.serverWork(), {
      kind: 'test.note',
      dedupeKey: 'same',
      runAfter: clock.now(),
    });
    const second = await enqueueJob(server.db.serverWork(), {
      kind: 'test.note',
      dedupeKey: 'same',
      runAfter: clock.now(),
    });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    // Once done, the same key may be added again.
    await runner({ 'test.note': { handle: async () => undefined } }).runDue();
    expect(
      await enqueueJob(server.db.serverWork(), {
        kind: 'test.note',
        dedupeKey: 'same',
        runAfter: clock.now(),
      }),
    ).not.toBeNull();
  });

  it('retries a failing job after a growing delay and gives up after its last attempt', async () => {
    let calls = 0;
    const jobs = runner({
      'test.flaky': {
        handle: async () => {
          calls += 1;
          throw new Error(`failure ${calls}`);
        },
        retryDelaySeconds: (attempt) => 60 * attempt,
      },
    });
    const id = await enqueueJob(server.db.serverWork(), {
      kind: 'test.flaky',
      maxAttempts: 3,
      runAfter: clock.now(),
    });
    await jobs.runDue();
    expect(calls).toBe(1);
    expect(await jobRow(id)).toMatchObject({
      attempts: 1,
      last_error: 'failure 1',
      failed_at: null,
    });

    clock.advance(59_000);
    await jobs.runDue();
    expect(calls).toBe(1);
    clock.advance(1_000);
    await jobs.runDue();
    expect(calls).toBe(2);
    clock.advance(120_000);
    await jobs.runDue();
    expect(calls).toBe(3);
    const row = await jobRow(id);
    expect(row).toMatchObject({ attempts: 3, last_error: 'failure 3' });
    expect(row.failed_at).not.toBeNull();
    clock.advance(86_400_000);
    await jobs.runDue();
    expect(calls).toBe(3);
  });

  it('stops a job that runs past its time and records why', async () => {
    const jobs = runner({
      'test.stuck': {
        timeoutMs: 50,
        handle: (_job, { signal }) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          ),
      },
    });
    const id = await enqueueJob(server.db.serverWork(), {
      kind: 'test.stuck',
      runAfter: clock.now(),
    });
    await jobs.runDue();
    expect((await jobRow(id)).last_error).toBe('the job took longer than 50 ms');
  });

  it('picks up a job again when the runner that claimed it died, once its lease has passed', async () => {
    const id = await enqueueJob(server.db.serverWork(), {
      kind: 'test.note',
      runAfter: clock.now(),
    });
    // A runner claims the job and dies before finishing it.
    await server.db
      .serverWork()
      .query(
        `update private.jobs set attempts = 1, locked_by = 'a dead runner', locked_until = $2 where id = $1`,
        [id, new Date(clock.now().getTime() + 600_000).toISOString()],
      );
    let runs = 0;
    const jobs = runner({ 'test.note': { handle: async () => void (runs += 1) } });
    await jobs.runDue();
    expect(runs).toBe(0);
    clock.advance(600_001);
    await jobs.runDue();
    expect(runs).toBe(1);
    expect((await jobRow(id)).attempts).toBe(2);
  });

  it('leases each job for its own kind’s time limit, not the slowest kind’s', async () => {
    let lockedFor: number | null = null;
    const jobs = runner({
      'test.quick': {
        timeoutMs: 60_000,
        handle: async (job) => {
          const { rows } = await server.db.serverWork().query<{ seconds: number }>(
            `select extract(epoch from locked_until - $2::timestamptz)::int as seconds
             from private.jobs where id = $1`,
            [job.id, clock.now().toISOString()],
          );
          lockedFor = rows[0]!.seconds;
        },
      },
      // An organisation's export may take half an hour; a dead runner's e-mail must not wait
      // that long to be sent by another.
      'test.slow': { timeoutMs: 30 * 60_000, handle: async () => {} },
    });
    await enqueueJob(server.db.serverWork(), { kind: 'test.quick', runAfter: clock.now() });
    await jobs.runDue();
    expect(lockedFor).toBe(120);
  });

  it('never runs a job twice, with two runners at once', async () => {
    const runs = new Map<number, number>();
    const kind: JobKind = {
      handle: async (job) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    };
    for (let i = 0; i < 20; i += 1)
      await enqueueJob(server.db.serverWork(), { kind: 'test.count', runAfter: clock.now() });
    await Promise.all([
      runner({ 'test.count': kind }, 3).runDue(),
      runner({ 'test.count': kind }, 3).runDue(),
    ]);
    expect(runs.size).toBe(20);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it('takes turns between organisations: one organisation’s backlog does not hold back another', async () => {
    const order: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      await enqueueJob(server.db.serverWork(), {
        kind: 'test.turn',
        organizationId: churchA.id,
        payload: { who: `A${i}` },
        runAfter: clock.now(),
      });
    }
    await enqueueJob(server.db.serverWork(), {
      kind: 'test.turn',
      organizationId: churchB.id,
      payload: { who: 'B0' },
      runAfter: new Date(clock.now().getTime() + 1),
    });
    clock.advance(1);
    await runner({
      'test.turn': { handle: async (job) => void order.push(String(job.payload.who)) },
    }).runDue();
    expect(order).toHaveLength(6);
    expect(order.indexOf('B0')).toBeLessThanOrEqual(1);
  });

  it('runs bulk work only when nothing else is due: an e-mail never waits behind indexing', async () => {
    const order: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      await enqueueJob(server.db.serverWork(), {
        kind: 'test.bulk',
        organizationId: churchA.id,
        payload: { who: `index${i}` },
        runAfter: clock.now(),
      });
    }
    // Queued later, in the same organisation.
    await enqueueJob(server.db.serverWork(), {
      kind: 'test.mail',
      organizationId: churchA.id,
      payload: { who: 'mail' },
      runAfter: new Date(clock.now().getTime() + 1),
    });
    clock.advance(1);
    const record: JobKind['handle'] = async (job) => void order.push(String(job.payload.who));
    await runner({
      'test.bulk': { handle: record, bulk: true },
      'test.mail': { handle: record },
    }).runDue();
    expect(order).toEqual(['mail', 'index0', 'index1', 'index2', 'index3']);
  });

  it('takes an e-mail queued while indexing runs before the rest of the backlog', async () => {
    const order: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      await enqueueJob(server.db.serverWork(), {
        kind: 'test.bulk',
        organizationId: churchA.id,
        payload: { who: `index${i}` },
        runAfter: clock.now(),
      });
    }
    const kinds: Record<string, JobKind> = {
      'test.bulk': {
        bulk: true,
        handle: async (job) => {
          order.push(String(job.payload.who));
          // The first one's work queues an e-mail, due at once.
          if (job.payload.who === 'index0') {
            await enqueueJob(server.db.serverWork(), {
              kind: 'test.mail',
              organizationId: churchA.id,
              payload: { who: 'mail' },
              runAfter: clock.now(),
            });
          }
        },
      },
      'test.mail': { handle: async (job) => void order.push(String(job.payload.who)) },
    };
    await runner(kinds).runDue();
    expect(order).toEqual(['index0', 'mail', 'index1', 'index2']);
  });

  // A backlog (a batch of uploads' text, say) costs the database one claim per job: once a job
  // has finished, the next is claimed without asking first whether one is due, and the claim
  // itself takes bulk work only when no other kind is due.
  it('claims a backlog one statement per job, without asking what is due between jobs', async () => {
    for (let i = 0; i < 6; i += 1) {
      await enqueueJob(server.db.serverWork(), {
        kind: 'test.bulk',
        organizationId: churchA.id,
        payload: { i },
        runAfter: clock.now(),
      });
    }
    const calls: string[] = [];
    // This runner's calls: the server's own runner polls in the same lane, for its own kinds.
    const restore = wrapHandles(server.db, (handle) =>
      recordingHandle(handle, (call, _handle, what) => {
        const mine = JSON.stringify(what ?? []).includes('test.bulk');
        if (handle.scope?.lane !== 'job:installation' || !mine) return;
        if (call === 'query') {
          const { sql } = what as { sql: string };
          calls.push(/claim_job/.test(sql) ? 'claim' : 'query');
        } else calls.push(call === 'read' ? 'due?' : 'write');
      }),
    );
    let done = 0;
    // Running as in the server (started, woken when work is added), not `runDue`, which asks
    // what is due each time round its own loop.
    const jobs = runner({ 'test.bulk': { bulk: true, handle: async () => void (done += 1) } });
    try {
      jobs.start();
      jobs.wake();
      await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(8), { timeout: 10_000 });
      expect(done).toBe(6);
      await jobs.stop();
    } finally {
      restore();
    }
    // One question of what is due (the wake-up), then a claim per job and one that finds none.
    expect(calls).toEqual(['due?', ...Array<string>(7).fill('claim')]);
    expect(calls.filter((call) => call !== 'claim' && call !== 'due?')).toEqual([]);
  });

  it('runs a schedule once when due, once after downtime, and once with two schedulers', async () => {
    let runs = 0;
    const schedules = {
      'test.every-hour': {
        next: everyMinutes(60),
        run: async () => {
          runs += 1;
        },
      },
    };
    const one = new Scheduler(server.db, clock, schedules);
    const two = new Scheduler(server.db, clock, schedules);
    await one.runDue();
    expect(runs).toBe(0);
    clock.advance(3_600_000);
    await Promise.all([one.runDue(), two.runDue()]);
    expect(runs).toBe(1);
    // Three days of downtime: one run, then the schedule is back on its grid.
    clock.advance(3 * 86_400_000);
    await one.runDue();
    await two.runDue();
    expect(runs).toBe(2);
    const { rows } = await server.db
      .serverWork()
      .query<{ next_run_at: string }>(
        `select next_run_at from private.schedules where name = 'test.every-hour'`,
      );
    expect(new Date(rows[0]!.next_run_at).getTime()).toBeGreaterThan(clock.now().getTime());
  });
});
