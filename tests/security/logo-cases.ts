/**
 * The logo as a PNG, JPEG or WebP image (issue 24, item 1) × every actor: asking the server to
 * convert an uploaded image, and reading how it went. The conversion itself is tested in
 * tests/backend/logo-images.test.ts; here, who may ask, and that nothing is queued otherwise.
 */
import type { TestServer } from '../support/server.ts';
import type { Actor, World } from './actors.ts';
import type { Case, Outcome } from './cases.ts';

function asAdmin(actor: Actor): Outcome {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization' || actor.kind === 'deactivated') {
    return 'error: No organization found';
  }
  return actor.kind === 'admin' || actor.kind === 'master_admin'
    ? 'allowed'
    : 'error: Only admins can change the logo';
}

function outcomeOf(result: { error: { message: string } | null; status: number }): Outcome {
  if (!result.error) return 'allowed';
  if (result.status === 401 || result.status === 403) return 'denied';
  return `error: ${result.error.message}`;
}

export function logoCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const db = server.db;
  for (const actor of world.actors) {
    const org = actor.org ? world.orgs[actor.org].organisation : null;

    cases.push({
      group: 'rpc convert_logo',
      name: `${actor.label} asks for the uploaded image to become the logo`,
      expected: asAdmin(actor),
      run: async () => {
        // An upload to convert, written as the storage service would; the job is removed again
        // before it runs (the job runner polls once a second), so the world stays as it was.
        if (org) {
          await db.serverWork().query(
            `insert into storage.objects (bucket_id, name, version, metadata)
             values ('branding', $1, null, '{"mimetype":"image/png","size":3}'::jsonb)
             on conflict (bucket_id, name) do nothing`,
            [`${org.id}/logo-source`],
          );
        }
        const outcome = outcomeOf(await actor.client.rpc('convert_logo'));
        const { rows } = await db.serverWork().query(
          `delete from private.jobs where kind = 'branding.convert-logo' and organization_id = $1
           returning id`,
          [org?.id ?? null],
        );
        if (org) {
          await db.serverWork().transaction(async (tx) => {
            await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
            await tx.query(
              `delete from storage.objects where bucket_id = 'branding' and name = $1`,
              [`${org.id}/logo-source`],
            );
          });
        }
        if (rows.length > 0 !== (outcome === 'allowed')) {
          return 'error: effect does not match the answer';
        }
        return outcome;
      },
    });

    cases.push({
      group: 'rpc logo_conversion',
      name: `${actor.label} reads how the logo's conversion went`,
      expected: asAdmin(actor),
      run: async () => outcomeOf(await actor.client.rpc('logo_conversion')),
    });
  }
  return cases;
}
