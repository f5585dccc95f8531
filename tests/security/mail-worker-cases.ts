/**
 * The `mail-worker` edge function and its steps (migration 20261127001100) × every actor: only
 * the service role may run the reminder pass or move mail. Every API role is refused both the
 * function (401 or 403) and the service-only rpc functions it calls, and each case checks with
 * the database that nothing was claimed or recorded; the service role's own call is the
 * control that the function answers at all.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import type { World } from './actors.ts';
import type { Case, Outcome } from './cases.ts';
import { unwrap } from './world.ts';

/** A day on which the document below reaches its 1-day reminder (08:00 UTC has passed). */
const DUE_AT = '2031-05-30T12:00:00Z';
const DUE_DATE = '2031-05-30';

/** `allowed` on success, `denied` on 401 or 403, else what went wrong. */
function rpcOutcome(result: { error: { message: string } | null; status: number }): Outcome {
  if (!result.error) return 'allowed';
  if (result.status === 401 || result.status === 403) return 'denied';
  return `error: ${result.error.message}`;
}

async function functionOutcome(invoked: Promise<{ error: unknown }>): Promise<Outcome> {
  const { error } = await invoked;
  if (!error) return 'allowed';
  if (!(error instanceof FunctionsHttpError)) throw error;
  const status = (error.context as Response).status;
  return status === 401 || status === 403 ? 'denied' : `error: status ${status}`;
}

export function mailWorkerCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const org = world.orgs.A;

  /** A document of A due for a reminder on DUE_DATE, so that a run there would leave a trace. */
  let dueDocument: Promise<void> | null = null;
  const ensureDueDocument = () =>
    (dueDocument ??= (async () => {
      unwrap(
        await server
          .service()
          .from('documents')
          .insert({
            organization_id: org.organisation.id,
            name: `mail-worker-${randomBytes(4).toString('hex')}.pdf`,
            category: 'Legal',
            file_path: `documents/${org.organisation.id}/mail-worker.pdf`,
            expiry_date: '2031-05-31',
          }),
        'due document',
      );
    })());

  /** Whether a reminder run of A on DUE_DATE was made: what a refused call must not do. */
  const reminderRunMade = async () =>
    (
      await server.db
        .serverWork()
        .query(
          `select 1 from private.reminder_runs where organization_id = $1 and local_date = $2`,
          [org.organisation.id, DUE_DATE],
        )
    ).rows.length > 0;

  for (const actor of world.actors) {
    cases.push({
      group: 'function mail-worker',
      name: `${actor.label} runs the mail worker`,
      expected: 'denied',
      run: async () => {
        await ensureDueDocument();
        const outcome = await functionOutcome(
          actor.client.functions.invoke('mail-worker', { body: { now: DUE_AT } }),
        );
        if ((await reminderRunMade()) !== (outcome === 'allowed')) {
          return `error: the answer was ${outcome} but a run was ${(await reminderRunMade()) ? '' : 'not '}made`;
        }
        return outcome;
      },
    });

    cases.push({
      group: 'rpc mail_worker_due_reminder_runs',
      name: `${actor.label} lists the due reminder runs`,
      expected: 'denied',
      run: async () =>
        rpcOutcome(await actor.client.rpc('mail_worker_due_reminder_runs', { now_at: DUE_AT })),
    });

    cases.push({
      group: 'rpc mail_worker_run_reminders',
      name: `${actor.label} runs A's reminders`,
      expected: 'denied',
      run: async () => {
        await ensureDueDocument();
        const outcome = rpcOutcome(
          await actor.client.rpc('mail_worker_run_reminders', {
            organization_id: org.organisation.id,
            local_date: DUE_DATE,
          }),
        );
        if (outcome === 'denied' && (await reminderRunMade())) {
          return 'error: denied, but the run was made';
        }
        return outcome;
      },
    });

    cases.push({
      group: 'rpc mail_worker_claim',
      name: `${actor.label} claims a message to deliver`,
      expected: 'denied',
      run: async () => {
        const runner = `matrix-${randomBytes(4).toString('hex')}`;
        const outcome = rpcOutcome(
          await actor.client.rpc('mail_worker_claim', { runner, lease_seconds: 60 }),
        );
        const { rows } = await server.db
          .serverWork()
          .query(`select 1 from private.jobs where locked_by = $1`, [runner]);
        if (outcome === 'denied' && rows.length > 0) return 'error: denied, but a job was claimed';
        return outcome;
      },
    });

    cases.push({
      group: 'rpc mail_worker_record',
      name: `${actor.label} records a delivery`,
      expected: 'denied',
      run: async () =>
        rpcOutcome(
          await actor.client.rpc('mail_worker_record', {
            job_id: 1,
            runner: 'matrix',
            outcome: 'sent',
          }),
        ),
    });
  }

  cases.push({
    group: 'function mail-worker',
    name: 'the service role runs the mail worker (at a time when nothing is due)',
    expected: 'allowed',
    run: async () => {
      const response = await fetch(`${server.url}/functions/v1/mail-worker`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${server.keys.serviceRoleKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ now: '2020-01-01T12:00:00Z' }),
      });
      const body = (await response.json()) as { reminder_runs?: number };
      return response.status === 200 && body.reminder_runs === 0
        ? 'allowed'
        : `error: status ${response.status} ${JSON.stringify(body)}`;
    },
  });
  return cases;
}
