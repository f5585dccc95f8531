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
// together and behind a write, a write after everything before it, anything else has the worker
// alone, in the order they came.
describe('worker gate', () => {
  it('lets reads in together, and tells each when the reads before it are answered', async () => {
    const gate = new WorkerGate();
    const first = await gate.enter('shared');
    const second = await gate.enter('shared');
    expect(await settled(first.ahead)).toBe(true);
    expect(await settled(second.ahead)).toBe(false);
    first.leave();
    expect(await settled(second.ahead)).toBe(true);
    second.leave();
  });

  it('gives anything else the worker alone: after the reads before it, before the reads after it', async () => {
    const gate = new WorkerGate();
    const read = await gate.enter('shared');
    const write = gate.enter('alone');
    const laterRead = gate.enter('shared');
    expect(await settled(write)).toBe(false);
    read.leave();
    const writing = await write;
    expect(await settled(writing.ahead)).toBe(true);
    expect(await settled(laterRead)).toBe(false);
    writing.leave();
    (await laterRead).leave();
  });

  it('lets a write in after everything before it, and reads in behind it, but not another write', async () => {
    const gate = new WorkerGate();
    const read = await gate.enter('shared');
    const write = gate.enter('first');
    const laterRead = gate.enter('shared');
    const laterWrite = gate.enter('first');
    // Not behind the read: the read's deadline could end the worker after the write committed.
    expect(await settled(write)).toBe(false);
    read.leave();
    const writing = await write;
    expect(await settled(writing.ahead)).toBe(true);
    // A read may wait in the worker behind the write, from when the write is answered.
    expect(await settled(laterRead)).toBe(true);
    const reading = await laterRead;
    expect(await settled(reading.ahead)).toBe(false);
    writing.leave();
    expect(await settled(reading.ahead)).toBe(true);
    expect(await settled(laterWrite)).toBe(false);
    reading.leave();
    (await laterWrite).leave();
  });

  it('refuses with QueueTimeoutError a caller not let in within its wait, and lets the next in', async () => {
    const gate = new WorkerGate();
    const write = await gate.enter('alone');
    const impatient = gate.enter('alone', 20);
    const patient = gate.enter('shared');
    await expect(impatient).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(await settled(patient)).toBe(false);
    write.leave();
    const reading = await patient;
    expect(await settled(reading.ahead)).toBe(true);
    reading.leave();
    // Leaving twice changes nothing: one writer is let in, and only one.
    reading.leave();
    const next = await gate.enter('alone');
    expect(await settled(gate.enter('alone'))).toBe(false);
    next.leave();
  });
});
