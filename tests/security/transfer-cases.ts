/**
 * Export and import of an organisation (issue 15) × every actor × both organisations: the
 * tables `organization_exports` and `organization_imports` (admins of the organisation read
 * them; nobody writes them through the API) and the rpc functions `start_organization_export`
 * and `start_organization_import` (admins, for their own organisation only). The buckets are in
 * storage-cases.ts. Each case makes its own rows with the server's connection and checks the
 * effect there.
 */
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import { standing, type Actor, type OrgWorld, type World } from './actors.ts';
import { admits, allowedIf, judgeWrite, type Case, type Outcome } from './cases.ts';

const TABLES = ['organization_exports', 'organization_imports'] as const;
type TransferTable = (typeof TABLES)[number];

/** A row of `table` for `org`, made by the server (as the jobs and functions make them). */
async function seededRow(server: TestServer, table: TransferTable, org: OrgWorld) {
  const { rows } = await server.db.serverWork().query<{ id: string }>(
    table === 'organization_exports'
      ? `insert into public.organization_exports (organization_id, status) values ($1, 'failed')
         returning id`
      : `insert into public.organization_imports (organization_id, file_path, status)
         values ($1::uuid, $1::text || '/seed.zip', 'failed') returning id`,
    [org.organisation.id],
  );
  return rows[0]!.id;
}

async function statusOf(server: TestServer, table: TransferTable, id: string) {
  const { rows } = await server.db
    .serverWork()
    .query<{ status: string }>(`select status from public.${table} where id = $1`, [id]);
  return rows[0]?.status ?? null;
}

/** No export or import of either organisation is waiting, so that a new one may start. */
async function settle(server: TestServer) {
  await server.db
    .serverWork()
    .query(
      `update public.organization_exports set status = 'failed' where status in ('queued', 'running')`,
    );
  await server.db
    .serverWork()
    .query(
      `update public.organization_imports set status = 'failed' where status in ('queued', 'running')`,
    );
}

/** The answer of a start_* call, judged by whether it made a row in `org` for the actor. */
async function judgedStart(
  server: TestServer,
  table: TransferTable,
  org: OrgWorld,
  actor: Actor,
  call: () => PromiseLike<{ error: { message: string } | null; status: number }>,
): Promise<Outcome> {
  const before = new Date(Date.now() - 1000).toISOString();
  const result = await call();
  const { rows } = await server.db.serverWork().query<{ count: number }>(
    `select count(*)::int as count from public.${table}
     where organization_id = $1 and requested_by = $2 and created_at >= $3`,
    [org.organisation.id, actor.person?.userId ?? null, before],
  );
  const made = rows[0]!.count > 0;
  if (result.status === 401 || result.status === 403)
    return made ? 'error: made despite 401' : 'denied';
  if (result.error) return made ? 'error: made despite an error' : `error: ${result.error.message}`;
  return allowedIf(made);
}

/** What a start_* call answers an actor who may not start it for `org`. */
function refusal(actor: Actor, adminRefusal: string, outsiderAdmin: string): Outcome {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization' || actor.kind === 'deactivated')
    return 'error: No organization found';
  if (actor.kind === 'user') return `error: ${adminRefusal}`;
  return outsiderAdmin as Outcome;
}

export function transferCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  for (const actor of world.actors) {
    for (const org of Object.values(world.orgs)) {
      const who = standing(actor, org.key);
      const admin = admits('admin', who);

      for (const table of TABLES) {
        cases.push({
          group: `table ${table}`,
          name: `${actor.label} reads ${table} of ${org.key}`,
          expected: allowedIf(admin),
          run: async () => {
            const id = await seededRow(server, table, org);
            const { data, error } = await actor.client.from(table).select('id').eq('id', id);
            return allowedIf(!error && (data ?? []).length === 1);
          },
        });
        cases.push({
          group: `table ${table}`,
          name: `${actor.label} inserts into ${table} of ${org.key}`,
          expected: 'denied',
          run: async () => {
            const marker = `${org.organisation.id}/${randomBytes(4).toString('hex')}.zip`;
            const values =
              table === 'organization_exports'
                ? { organization_id: org.organisation.id, file_path: marker }
                : { organization_id: org.organisation.id, file_path: marker };
            const { error } = await actor.client.from(table).insert(values);
            const { rows } = await server.db
              .serverWork()
              .query(`select 1 from public.${table} where file_path = $1`, [marker]);
            return judgeWrite(error, rows.length > 0);
          },
        });
        cases.push({
          group: `table ${table}`,
          name: `${actor.label} updates ${table} of ${org.key}`,
          expected: 'denied',
          run: async () => {
            const id = await seededRow(server, table, org);
            const { error } = await actor.client
              .from(table)
              .update({ status: 'queued' })
              .eq('id', id);
            return judgeWrite(error, (await statusOf(server, table, id)) === 'queued');
          },
        });
        cases.push({
          group: `table ${table}`,
          name: `${actor.label} deletes from ${table} of ${org.key}`,
          expected: 'denied',
          run: async () => {
            const id = await seededRow(server, table, org);
            const { error } = await actor.client.from(table).delete().eq('id', id);
            return judgeWrite(error, (await statusOf(server, table, id)) === null);
          },
        });
      }

      cases.push({
        group: 'rpc start_organization_export',
        name: `${actor.label} exports ${org.key}`,
        expected: admin
          ? 'allowed'
          : refusal(actor, 'Only admins can export the organization', 'denied'),
        run: async () => {
          await settle(server);
          return judgedStart(server, 'organization_exports', org, actor, () =>
            actor.client.rpc('start_organization_export', { include_versions: false }),
          );
        },
      });

      cases.push({
        group: 'rpc start_organization_import',
        name: `${actor.label} imports a ZIP uploaded to the folder of ${org.key}`,
        expected: admin
          ? 'allowed'
          : refusal(
              actor,
              'Only admins can import documents',
              'error: The file to import has not been uploaded',
            ),
        run: async () => {
          await settle(server);
          const name = `${org.organisation.id}/${randomBytes(6).toString('hex')}.zip`;
          const { error } = await server
            .service()
            .storage.from('imports')
            .upload(name, 'not a zip', { contentType: 'application/zip' });
          if (error) throw new Error(`import fixture: ${error.message}`);
          return judgedStart(server, 'organization_imports', org, actor, () =>
            actor.client.rpc('start_organization_import', { file_path: name }),
          );
        },
      });
    }
  }
  return cases;
}
