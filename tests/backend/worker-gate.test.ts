import { describe, expect, it } from 'vitest';
import { QueueTimeoutError } from '../../server/db/fair-queue.ts';
import { WorkerGate } from '../../server/db/worker-gate.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Whether `promise` has settled after the pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await tick();
  return done;
}

// Who may send to the PGlite worker (server/db/worker-gate.ts): reads wait in the worker
// together, anything else has it alone, in the order they came.
describe('worker gate', () => {
  it('lets reads in together, and tells each when the reads before it are answered', async () => {
    const gate = new WorkerGate();
    const first = await gate.enter(false);
    const second = await gate.enter(false);
    expect(await settled(first.ahead)).toBe(true);
    expect(await settled(second.ahead)).toBe(false);
    first.leave();
    expect(await settled(second.ahead)).toBe(true);
    second.leave();
  });

  it('gives anything else the worker alone: after the reads before it, before the reads after it', async () => {
    const gate = new WorkerGate();
    const read = await gate.enter(false);
    const write = gate.enter(true);
    const laterRead = gate.enter(false);
    expect(await settled(write)).toBe(false);
    read.leave();
    const writing = await write;
    expect(await settled(writing.ahead)).toBe(true);
    expect(await settled(laterRead)).toBe(false);
    writing.leave();
    (await laterRead).leave();
  });

  it('refuses with QueueTimeoutError a caller not let in within its wait, and lets the next in', async () => {
    const gate = new WorkerGate();
    const write = await gate.enter(true);
    const impatient = gate.enter(true, 20);
    const patient = gate.enter(false);
    await expect(impatient).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(await settled(patient)).toBe(false);
    write.leave();
    const reading = await patient;
    expect(await settled(reading.ahead)).toBe(true);
    reading.leave();
    // Leaving twice changes nothing: one writer is let in, and only one.
    reading.leave();
    const next = await gate.enter(true);
    expect(await settled(gate.enter(true))).toBe(false);
    next.leave();
  });
});
