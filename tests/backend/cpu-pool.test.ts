import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CpuPool, CpuPoolBusyError } from '../../server/workers/cpu-pool.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, authRequest, signUpRaw, uniqueEmail } from './auth-helpers.ts';

// Issue 11, F2: bcrypt on the thread that answers HTTP made `/config.json` wait seconds while
// sign-ups ran. Password work now runs in the CPU pool's worker threads.

describe('password hashing in the CPU pool', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ schema: 'platform' });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  it('runs in worker threads, never on the thread that answers HTTP', async () => {
    const onMainThread = [
      vi.spyOn(bcrypt, 'hash'),
      vi.spyOn(bcrypt, 'hashSync'),
      vi.spyOn(bcrypt, 'compare'),
      vi.spyOn(bcrypt, 'compareSync'),
    ];
    const before = server.cpu.completed;
    const email = uniqueEmail('pooled');
    await signUpRaw(server, email);
    const signedIn = await authRequest(server, '/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    expect(signedIn.status).toBe(200);
    const wrong = await authRequest(server, '/token?grant_type=password', {
      body: { email, password: 'not the password' },
    });
    expect(wrong.status).toBe(400);

    // One hash and two comparisons, each a task of the pool; none on this thread.
    expect(server.cpu.completed - before).toBeGreaterThanOrEqual(3);
    expect(server.cpu.threads).toBeGreaterThanOrEqual(1);
    for (const spy of onMainThread) expect(spy).not.toHaveBeenCalled();

    // The hash the pool made is a real bcrypt hash of the password, with the configured cost.
    const { rows } = await server.db
      .serverWork()
      .query<{ encrypted_password: string }>(
        'select encrypted_password from auth.users where email = $1',
        [email],
      );
    expect(rows[0]!.encrypted_password).toMatch(/^\$2[aby]\$04\$/);
    expect(bcrypt.compareSync(PASSWORD, rows[0]!.encrypted_password)).toBe(true);
  });
});

describe('the CPU pool', () => {
  it('refuses work beyond its queue at once instead of piling it up, and keeps working', async () => {
    const pool = new CpuPool({ threads: 1, maxQueue: 1 });
    try {
      const runs = Array.from({ length: 4 }, () =>
        pool.run('hashPassword', { password: 'queued', cost: 8 }, { lane: 'test' }),
      );
      const settled = await Promise.allSettled(runs);
      const refused = settled.filter((s) => s.status === 'rejected');
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const r of refused) expect(r.reason).toBeInstanceOf(CpuPoolBusyError);
      for (const s of settled) {
        if (s.status === 'fulfilled') expect(bcrypt.compareSync('queued', s.value)).toBe(true);
      }
      // Once the queue has drained, new work is accepted again.
      const hash = await pool.run('hashPassword', { password: 'later', cost: 4 }, { lane: 'test' });
      expect(await pool.run('comparePassword', { password: 'later', hash }, { lane: 'test' })).toBe(
        true,
      );
      expect(
        await pool.run(
          'comparePassword',
          { password: 'later', hash: 'not bcrypt' },
          { lane: 'test' },
        ),
      ).toBe(false);
    } finally {
      await pool.close();
    }
  });

  it('takes turns between callers: one address’s burst delays another’s task by one, not all', async () => {
    const pool = new CpuPool({ threads: 1 });
    try {
      const finished: string[] = [];
      const hash = (lane: string, label: string) =>
        pool
          .run('hashPassword', { password: label, cost: 6 }, { lane })
          .then(() => finished.push(label));
      const burst = Array.from({ length: 6 }, (_, i) => hash('address:attacker', `burst ${i}`));
      const other = hash('address:owner', 'owner');
      await Promise.all([...burst, other]);
      expect(finished.indexOf('owner')).toBeLessThanOrEqual(1);
    } finally {
      await pool.close();
    }
  });
});
