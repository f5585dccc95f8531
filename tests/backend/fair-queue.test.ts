import { describe, expect, it } from 'vitest';
import { FairQueue, QueueTimeoutError } from '../../server/db/fair-queue.ts';

/** A task that runs until `release` is called, recording its start. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

// The database's turn-taking (server/db/fair-queue.ts): one busy caller delays another by at
// most one task per lane ahead of it, never by its whole backlog.
describe('fair queue', () => {
  it('takes turns between lanes instead of serving one lane’s backlog first', async () => {
    const queue = new FairQueue({ concurrency: 1, perLane: 1 });
    const log: string[] = [];
    const gates = ['a1', 'a2', 'a3', 'b1', 'c1'].map((name) => ({ name, ...gate(log, name) }));
    const runs = gates.map(({ name, task }) => queue.run(name[0]!, task));
    for (const { release } of gates) {
      await tick();
      release();
    }
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
    expect(log).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
  });

  it('runs tasks of one lane in the order they came', async () => {
    const queue = new FairQueue({ concurrency: 4, perLane: 1 });
    const log: string[] = [];
    const first = gate(log, 'first');
    const second = gate(log, 'second');
    const runs = [queue.run('a', first.task), queue.run('a', second.task)];
    await tick();
    expect(log).toEqual(['first']);
    first.release();
    await tick();
    await tick();
    expect(log).toEqual(['first', 'second']);
    second.release();
    await Promise.all(runs);
  });

  it('lets one lane hold at most perLane of the places, leaving the rest to others', async () => {
    const queue = new FairQueue({ concurrency: 3, perLane: 2 });
    const log: string[] = [];
    const tasks = ['a1', 'a2', 'a3', 'b1'].map((name) => gate(log, name));
    const runs = ['a', 'a', 'a', 'b'].map((lane, i) => queue.run(lane, tasks[i]!.task));
    await tick();
    expect(log).toEqual(['a1', 'a2', 'b1']);
    expect(queue.waiting).toBe(1);
    for (const task of tasks) task.release();
    await Promise.all(runs);
    expect(log).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it('runs a lane one task at a time for a while after two of its last three tasks ran long', async () => {
    const queue = new FairQueue({ concurrency: 4, perLane: 2, heavyTaskMs: 20 });
    const log: string[] = [];
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Quick tasks keep two places.
    const quick = ['q1', 'q2'].map((name) => gate(log, name));
    const quickRuns = quick.map((g) => queue.run('a', g.task));
    await tick();
    expect(log).toEqual(['q1', 'q2']);
    for (const g of quick) g.release();
    await Promise.all(quickRuns);
    // Two long tasks, then the lane gets one place, while another lane keeps two.
    await queue.run('a', async () => pause(30));
    await queue.run('a', async () => pause(30));
    await tick();
    const after = ['a1', 'a2', 'b1', 'b2'].map((name) => gate(log, name));
    const runs = ['a', 'a', 'b', 'b'].map((lane, i) => queue.run(lane, after[i]!.task));
    await tick();
    expect(log.slice(2)).toEqual(['a1', 'b1', 'b2']);
    for (const g of after) g.release();
    await Promise.all(runs);
    expect(log.slice(2)).toEqual(['a1', 'b1', 'b2', 'a2']);
  });

  it('keeps a lane’s places after one long task among quick ones', async () => {
    const queue = new FairQueue({ concurrency: 4, perLane: 2, heavyTaskMs: 20 });
    const log: string[] = [];
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await queue.run('a', async () => undefined);
    // A task that waited for a busy machine, between quick ones: still two places.
    await queue.run('a', async () => pause(30));
    await queue.run('a', async () => undefined);
    await tick();
    const after = ['a1', 'a2'].map((name) => gate(log, name));
    const runs = after.map((g) => queue.run('a', g.task));
    await tick();
    expect(log).toEqual(['a1', 'a2']);
    for (const g of after) g.release();
    await Promise.all(runs);
  });

  it('gives up on a task that waited longer than allowed, which then never runs', async () => {
    const queue = new FairQueue({ concurrency: 1, perLane: 1 });
    const log: string[] = [];
    const busy = gate(log, 'busy');
    const running = queue.run('a', busy.task);
    const waiting = queue.run(
      'b',
      async () => {
        log.push('late');
        return 'late';
      },
      20,
    );
    await expect(waiting).rejects.toBeInstanceOf(QueueTimeoutError);
    busy.release();
    await running;
    await tick();
    expect(log).toEqual(['busy']);
    expect(queue.waiting).toBe(0);
  });

  it('passes a task’s failure to its caller and goes on with the next', async () => {
    const queue = new FairQueue({ concurrency: 1, perLane: 1 });
    const failing = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('b', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('runs a lane’s next waiting task alongside a running one, whose place stays taken until both are done', async () => {
    const queue = new FairQueue<string>({ concurrency: 1, perLane: 1 });
    const log: string[] = [];
    let releaseHold!: () => void;
    const held = new Promise<void>((resolve) => (releaseHold = resolve));
    const host = queue.run('a', async (hold) => {
      hold(held);
      log.push('a1');
      return 'a1';
    });
    const joined = queue.run(
      'a',
      async () => 'a2 in its own turn',
      Infinity,
      async (on) => {
        log.push(`a2 on ${on}`);
        return 'a2 alongside';
      },
    );
    await tick();
    expect(queue.joinNext('a', 'the connection of a1')).toBe(true);
    expect(await host).toBe('a1');
    expect(await joined).toBe('a2 alongside');
    // a1's place is still taken: b waits for the held work.
    const other = queue.run('b', async () => {
      log.push('b1');
    });
    await tick();
    expect(log).toEqual(['a1', 'a2 on the connection of a1']);
    expect(queue.joinNext('a', 'nothing waits')).toBe(false);
    releaseHold();
    await other;
    expect(log).toEqual(['a1', 'a2 on the connection of a1', 'b1']);
  });

  it('joins nothing while another lane waits for a place, nor a task that cannot join', async () => {
    const queue = new FairQueue<string>({ concurrency: 1, perLane: 1 });
    const log: string[] = [];
    const busy = gate(log, 'a1');
    const running = queue.run('a', busy.task);
    const plain = queue.run('a', async () => 'a2');
    await tick();
    expect(queue.joinNext('a', 'host')).toBe(false);
    const joinable = queue.run(
      'c',
      async () => 'c1',
      Infinity,
      async () => 'c1 alongside',
    );
    const waitingB = queue.run('b', async () => 'b1');
    await tick();
    // c's task could join, but b waits for the only place.
    expect(queue.joinNext('c', 'host')).toBe(false);
    busy.release();
    expect(await Promise.all([running, plain, joinable, waitingB])).toEqual([
      'a1',
      'a2',
      'c1',
      'b1',
    ]);
  });
});
