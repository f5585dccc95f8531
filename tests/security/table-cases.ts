/**
 * Every table (and the view) × select / insert / update / delete × every actor × both
 * organisations. The rules below are the contract of docs/data-model.md; each case creates its
 * own row past row-level security (the service role, or the server's own connection, which it
 * does not filter either), lets the actor try through supabase-js, and judges by what is in the
 * database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ident } from '../../server/rest/sql-util.ts';
import type { TestServer } from '../support/server.ts';
import { standing, type OrgKey, type OrgWorld, type World } from './actors.ts';
import { admits, allowedIf, judgeWrite, type Case, type Outcome, type Rule } from './cases.ts';
import { unwrap } from './world.ts';

type Operation = 'select' | 'insert' | 'update' | 'delete';
type Row = Record<string, unknown>;

export interface TableSpec {
  /** What the actor calls `from(…)` on. */
  table: string;
  /** How the cases name the rows, when not by the table (e.g. `documents in the trash`). */
  label?: string;
  /** Where the effect is checked (the table behind a view). */
  storedIn?: string;
  /** The column that identifies the case's row. */
  key: string;
  /** Columns the actor selects (default `*`). */
  columns?: string;
  rules: Record<Operation, Rule>;
  /** A row of the organisation, made (or found) past row-level security; returns its key. */
  fixture(server: TestServer, org: OrgWorld): Promise<string>;
  /** A new row of the organisation for the actor to insert, with its key. */
  newRow(server: TestServer, org: OrgWorld): Promise<{ key: string; row: Row }>;
  /** What the actor tries to change. */
  change: Row;
}

const tag = () => randomBytes(4).toString('hex');
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

/**
 * Inserts a fixture row on the server's own connection, which row-level security does not
 * filter (as it does not filter the service role), the row's columns taken from its JSON by
 * `json_populate_record` as the REST API takes an inserted body's; returns its key as text.
 * Written directly rather than through a REST request per case: the set-up of a case is not
 * under test (with the effect reads of `storedRow`, 2,100 of the part's 4,600 requests).
 */
async function serviceInsert(server: TestServer, table: string, row: Row, key: string) {
  const columns = Object.keys(row).map(ident).join(', ');
  const { rows } = await server.db.serverWork().query<{ key: string }>(
    `insert into public.${ident(table)} (${columns})
       select ${columns} from json_populate_record(null::public.${ident(table)}, $1::json)
       returning ${ident(key)}::text as key`,
    [JSON.stringify(row)],
  );
  if (!rows[0]) throw new Error(`fixture ${table}: no row inserted`);
  return rows[0].key;
}

/** A connection of the organisation's bystander (someone else's connection for every actor). */
async function bystanderConnection(server: TestServer, org: OrgWorld, withTokens: boolean) {
  const id = await serviceInsert(
    server,
    'oauth_connections',
    {
      provider_id: `p-${tag()}`,
      user_id: org.bystander.userId,
      organization_id: org.organisation.id,
      scopes: ['read'],
    },
    'id',
  );
  if (withTokens) {
    await serviceInsert(
      server,
      'oauth_connection_tokens',
      { connection_id: id, access_token: 'enc:access', refresh_token: 'enc:refresh' },
      'connection_id',
    );
  }
  return id;
}

const documentRow = (org: OrgWorld): Row => ({
  organization_id: org.organisation.id,
  name: `report-${tag()}.pdf`,
  category: 'HR',
  file_path: `documents/${org.organisation.id}/${Date.now()}-${tag()}.pdf`,
  size: 1234,
  tags: ['matrix'],
});

const integrationRow = (org: OrgWorld): Row => ({
  organization_id: org.organisation.id,
  integration_key: `tool-${tag()}`,
  name: 'Tool',
  description: 'A tool',
  url: 'https://tool.example.test',
  category: 'Custom',
});

const configRow = (org: OrgWorld): Row => ({
  organization_id: org.organisation.id,
  provider_id: `p-${tag()}`,
  client_id: 'client',
  client_secret: 'matrix-client-secret',
});

const outboxRow = (org: OrgWorld): Row => ({
  organization_id: org.organisation.id,
  kind: 'documents',
  recipients: ['someone@example.org'],
  subject: `Matrix message ${tag()}`,
  status: 'outbox',
});

/** A version of a new document of the organisation (the document made with the service role). */
async function versionRow(server: TestServer, org: OrgWorld): Promise<Row> {
  const documentId = await serviceInsert(server, 'documents', documentRow(org), 'id');
  return {
    document_id: documentId,
    organization_id: org.organisation.id,
    version_number: 1,
    change: 'renewal',
    file_path: `documents/${org.organisation.id}/${Date.now()}-${tag()}.pdf`,
    size: 10,
    name: 'earlier.pdf',
    uploaded_at: new Date().toISOString(),
  };
}

/** The bystander's calendar address (one per member: an earlier one is replaced). */
async function bystanderFeed(server: TestServer, org: OrgWorld): Promise<string> {
  unwrap(
    await server.service().from('calendar_feeds').delete().eq('user_id', org.bystander.userId),
    'clear calendar_feeds',
  );
  return serviceInsert(
    server,
    'calendar_feeds',
    { user_id: org.bystander.userId, organization_id: org.organisation.id, scope: 'all' },
    'id',
  );
}

/** A history entry of the organisation, written as the database's triggers write them. */
async function activityEntry(server: TestServer, org: OrgWorld, documentEntry: boolean) {
  const { rows } = await server.db.serverWork().query<{ subject: string }>(
    `insert into public.activity_log (organization_id, kind, document_id, subject)
     values ($1, $2, $3, $4) returning subject`,
    [
      org.organisation.id,
      documentEntry ? 'document.updated' : 'member.role_changed',
      documentEntry ? randomUUID() : null,
      `matrix-entry-${tag()}`,
    ],
  );
  return rows[0]!.subject;
}

export const TABLES: TableSpec[] = [
  {
    table: 'organizations',
    key: 'id',
    rules: { select: 'member', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: async (_server, org) => org.organisation.id,
    newRow: async () => {
      const id = randomUUID();
      return { key: id, row: { id, name: 'Injected organisation' } };
    },
    change: { name: 'Renamed by someone' },
  },
  {
    // Someone else's profile (the bystander's); one's own profile is in own-row-cases.ts.
    table: 'user_profiles',
    key: 'id',
    rules: { select: 'member', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: async (_server, org) => org.bystander.userId,
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: { id, email: `${tag()}@example.test`, organization_id: org.organisation.id },
      };
    },
    change: { full_name: 'Renamed by someone' },
  },
  {
    table: 'documents',
    key: 'id',
    // Delete moves a document to the trash (delete_documents); nobody deletes a row.
    rules: { select: 'member', insert: 'member', update: 'member', delete: 'nobody' },
    fixture: (server, org) => serviceInsert(server, 'documents', documentRow(org), 'id'),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return { key: id, row: { id, ...documentRow(org) } };
    },
    change: { name: 'renamed.pdf' },
  },
  {
    // The trash is reached through list_trash, restore_documents and purge_documents only
    // (trash-cases.ts); nobody puts a document in it by inserting one.
    table: 'documents',
    label: 'documents in the trash',
    key: 'id',
    rules: { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) =>
      serviceInsert(
        server,
        'documents',
        { ...documentRow(org), deleted_at: new Date().toISOString() },
        'id',
      ),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return { key: id, row: { id, ...documentRow(org), deleted_at: new Date().toISOString() } };
    },
    change: { name: 'renamed.pdf' },
  },
  {
    // A document's text and its reading state: made and written by the database and the
    // server only (the insert tries a document without a text row).
    table: 'document_texts',
    key: 'document_id',
    columns: 'document_id, organization_id, state, reason',
    rules: { select: 'member', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => serviceInsert(server, 'documents', documentRow(org), 'id'),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: {
          document_id: id,
          organization_id: org.organisation.id,
          state: 'ready',
          content: 'forged',
        },
      };
    },
    change: { state: 'ready', reason: 'forged' },
  },
  {
    // The history: members read document entries, nobody writes, changes or deletes one
    // (the service role neither: history.test.ts).
    table: 'activity_log',
    label: 'activity_log document entries',
    key: 'subject',
    rules: { select: 'member', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => activityEntry(server, org, true),
    newRow: async (_server, org) => {
      const subject = `forged-${tag()}`;
      return {
        key: subject,
        row: { organization_id: org.organisation.id, kind: 'document.updated', subject },
      };
    },
    change: { kind: 'document.deleted' },
  },
  {
    // Entries about members, connections and settings: admins only.
    table: 'activity_log',
    label: 'activity_log other entries',
    key: 'subject',
    rules: { select: 'admin', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => activityEntry(server, org, false),
    newRow: async (_server, org) => {
      const subject = `forged-${tag()}`;
      return {
        key: subject,
        row: { organization_id: org.organisation.id, kind: 'member.invited', subject },
      };
    },
    change: { kind: 'document.deleted' },
  },
  {
    table: 'user_invitations',
    key: 'id',
    rules: { select: 'admin', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) =>
      serviceInsert(
        server,
        'user_invitations',
        {
          email: `invitee-${tag()}@example.test`,
          role: 'user',
          organization_id: org.organisation.id,
          invited_by: org.organisation.master.userId,
          expires_at: inAWeek(),
        },
        'id',
      ),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: {
          id,
          email: `forged-${tag()}@example.test`,
          role: 'admin',
          organization_id: org.organisation.id,
          expires_at: inAWeek(),
        },
      };
    },
    change: { role: 'admin' },
  },
  {
    // The readable columns only; client_secret is tried in attack-cases.ts.
    table: 'oauth_configs',
    key: 'id',
    columns: 'id, provider_id, client_id, has_client_secret',
    rules: { select: 'member', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => serviceInsert(server, 'oauth_configs', configRow(org), 'id'),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return { key: id, row: { id, ...configRow(org) } };
    },
    change: { client_id: 'hijacked' },
  },
  {
    table: 'oauth_provider_settings',
    storedIn: 'oauth_configs',
    key: 'provider_id',
    rules: { select: 'member', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => serviceInsert(server, 'oauth_configs', configRow(org), 'provider_id'),
    newRow: async () => {
      const provider = `p-${tag()}`;
      return { key: provider, row: { provider_id: provider, client_id: 'client' } };
    },
    change: { client_id: 'hijacked' },
  },
  {
    // Someone else's connection; one's own is in own-row-cases.ts.
    table: 'oauth_connections',
    key: 'id',
    rules: { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => bystanderConnection(server, org, false),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: {
          id,
          provider_id: `p-${tag()}`,
          user_id: org.bystander.userId,
          organization_id: org.organisation.id,
        },
      };
    },
    change: { is_active: false },
  },
  {
    table: 'oauth_connection_tokens',
    key: 'connection_id',
    rules: { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => bystanderConnection(server, org, true),
    newRow: async (server, org) => {
      const connection = await bystanderConnection(server, org, false);
      return { key: connection, row: { connection_id: connection, access_token: 'forged' } };
    },
    change: { access_token: 'replaced' },
  },
  {
    table: 'oauth_states',
    key: 'id',
    rules: { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) =>
      serviceInsert(
        server,
        'oauth_states',
        {
          state_hash: randomBytes(32).toString('hex'),
          user_id: org.bystander.userId,
          organization_id: org.organisation.id,
          provider_id: 'github',
          expires_at: inAWeek(),
        },
        'id',
      ),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: {
          id,
          state_hash: randomBytes(32).toString('hex'),
          user_id: org.bystander.userId,
          organization_id: org.organisation.id,
          provider_id: 'github',
          expires_at: inAWeek(),
        },
      };
    },
    change: { used_at: new Date().toISOString() },
  },
  {
    table: 'integration_customizations',
    key: 'id',
    rules: {
      select: 'member',
      insert: 'master_admin',
      update: 'master_admin',
      delete: 'master_admin',
    },
    fixture: (server, org) =>
      serviceInsert(server, 'integration_customizations', integrationRow(org), 'id'),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return { key: id, row: { id, ...integrationRow(org) } };
    },
    change: { name: 'Renamed tool' },
  },
  {
    table: 'custom_integrations',
    key: 'id',
    rules: {
      select: 'member',
      insert: 'master_admin',
      update: 'master_admin',
      delete: 'master_admin',
    },
    fixture: (server, org) =>
      serviceInsert(
        server,
        'custom_integrations',
        { organization_id: org.organisation.id, operations_category: 'hr' },
        'id',
      ),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: { id, organization_id: org.organisation.id, operations_category: 'it', name: 'Mine' },
      };
    },
    change: { name: 'Renamed integration' },
  },
  {
    table: 'integration_contacts',
    key: 'id',
    rules: { select: 'member', insert: 'admin', update: 'admin', delete: 'admin' },
    fixture: (server, org) =>
      serviceInsert(
        server,
        'integration_contacts',
        { organization_id: org.organisation.id, integration_key: `tool-${tag()}`, name: 'Pat' },
        'id',
      ),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: {
          id,
          organization_id: org.organisation.id,
          integration_key: `tool-${tag()}`,
          name: 'Sam',
        },
      };
    },
    change: { name: 'Renamed contact' },
  },
  {
    // Admins read the Outbox; messages are written by functions and the delivery job only.
    table: 'outbox_messages',
    key: 'id',
    rules: { select: 'admin', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => serviceInsert(server, 'outbox_messages', outboxRow(org), 'id'),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return { key: id, row: { id, ...outboxRow(org) } };
    },
    change: { subject: 'Rewritten by someone' },
  },
  {
    table: 'document_versions',
    key: 'id',
    rules: { select: 'member', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: async (server, org) =>
      serviceInsert(server, 'document_versions', await versionRow(server, org), 'id'),
    newRow: async (server, org) => {
      const id = randomUUID();
      return { key: id, row: { id, ...(await versionRow(server, org)) } };
    },
    change: { name: 'rewritten.pdf' },
  },
  {
    // One row per organisation, as corporate_status.
    table: 'reminder_settings',
    key: 'organization_id',
    rules: { select: 'member', insert: 'admin', update: 'admin', delete: 'admin' },
    fixture: async (server, org) => {
      unwrap(
        await server
          .service()
          .from('reminder_settings')
          .upsert({ organization_id: org.organisation.id, send_hour: 8 }),
        'fixture reminder_settings',
      );
      return org.organisation.id;
    },
    newRow: async (server, org) => {
      unwrap(
        await server
          .service()
          .from('reminder_settings')
          .delete()
          .eq('organization_id', org.organisation.id),
        'clear reminder_settings',
      );
      return {
        key: org.organisation.id,
        row: { organization_id: org.organisation.id, send_hour: 6, time_zone: 'Europe/London' },
      };
    },
    change: { send_hour: 13 },
  },
  {
    // Someone else's (the bystander's) calendar address; one's own is in own-row-cases.ts.
    table: 'calendar_feeds',
    key: 'id',
    rules: { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody' },
    fixture: (server, org) => bystanderFeed(server, org),
    newRow: async (server, org) => {
      unwrap(
        await server.service().from('calendar_feeds').delete().eq('user_id', org.bystander.userId),
        'clear calendar_feeds',
      );
      const id = randomUUID();
      return {
        key: id,
        row: {
          id,
          user_id: org.bystander.userId,
          organization_id: org.organisation.id,
          scope: 'all',
        },
      };
    },
    change: { scope: 'mine' },
  },
  {
    // The organisation's departments (issue 24): the key is the server's, made from the name.
    table: 'departments',
    key: 'id',
    rules: { select: 'member', insert: 'admin', update: 'admin', delete: 'admin' },
    fixture: (server, org) =>
      serviceInsert(
        server,
        'departments',
        { organization_id: org.organisation.id, name: `Fixture ${tag()}`, tags: ['fixture'] },
        'id',
      ),
    newRow: async (_server, org) => {
      const id = randomUUID();
      return {
        key: id,
        row: { id, organization_id: org.organisation.id, name: `New ${tag()}`, tags: ['new'] },
      };
    },
    change: { name: 'Renamed', hidden: true },
  },
  {
    // One row per organisation: the fixture (re)creates it, an insert case first removes it.
    table: 'corporate_status',
    key: 'organization_id',
    rules: { select: 'member', insert: 'admin', update: 'admin', delete: 'admin' },
    fixture: async (server, org) => {
      unwrap(
        await server
          .service()
          .from('corporate_status')
          .upsert({ organization_id: org.organisation.id, entity_name: 'Fixture Inc.' }),
        'fixture corporate_status',
      );
      return org.organisation.id;
    },
    newRow: async (server, org) => {
      unwrap(
        await server
          .service()
          .from('corporate_status')
          .delete()
          .eq('organization_id', org.organisation.id),
        'clear corporate_status',
      );
      return {
        key: org.organisation.id,
        row: {
          organization_id: org.organisation.id,
          entity_name: 'Inserted Inc.',
          entity_type: 'LLC',
        },
      };
    },
    change: { entity_name: 'Renamed Inc.' },
  },
];

/**
 * The case's row as the database holds it, or null: read on the server's own connection, which
 * row-level security does not filter (as it does not filter the service role), and turned into
 * JSON by `row_to_json` as the REST API turns rows into JSON. Read directly rather than through a
 * second REST request per case, whose HTTP, REST and supabase-js work was not under test (with
 * the fixtures' inserts, 2,100 of the part's 4,600 requests).
 */
async function storedRow(server: TestServer, spec: TableSpec, key: string): Promise<Row | null> {
  const { rows } = await server.db.serverWork().query<{ row: string }>(
    `select row_to_json(t)::text as row from public.${ident(spec.storedIn ?? spec.table)} t
       where t.${ident(spec.key)} = $1`,
    [key],
  );
  return rows[0] ? (JSON.parse(rows[0].row) as Row) : null;
}

async function attempt(
  server: TestServer,
  spec: TableSpec,
  operation: Operation,
  client: SupabaseClient,
  org: OrgWorld,
  selectFixture: () => Promise<string>,
): Promise<Outcome> {
  if (operation === 'select') {
    const key = await selectFixture();
    const { data, error } = await client
      .from(spec.table)
      .select(spec.columns ?? '*')
      .eq(spec.key, key);
    return allowedIf(!error && data.length === 1);
  }
  if (operation === 'insert') {
    const { key, row } = await spec.newRow(server, org);
    const { error } = await client.from(spec.table).insert(row);
    return judgeWrite(error, (await storedRow(server, spec, key)) !== null);
  }
  const key = await spec.fixture(server, org);
  if (operation === 'update') {
    const { error } = await client.from(spec.table).update(spec.change).eq(spec.key, key);
    const row = await storedRow(server, spec, key);
    const changed = Object.entries(spec.change).every(([column, value]) => row?.[column] === value);
    return judgeWrite(error, changed);
  }
  const { error } = await client.from(spec.table).delete().eq(spec.key, key);
  return judgeWrite(error, (await storedRow(server, spec, key)) === null);
}

export function tableCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  for (const spec of TABLES) {
    for (const target of ['A', 'B'] as OrgKey[]) {
      const org = world.orgs[target];
      // One row to read per table and organisation is enough: reading changes nothing.
      let readable: Promise<string> | undefined;
      const selectFixture = () => (readable ??= spec.fixture(server, org));
      for (const operation of ['select', 'insert', 'update', 'delete'] as const) {
        for (const actor of world.actors) {
          cases.push({
            group: `table ${spec.label ?? spec.table}`,
            name: `${actor.label} ${operation} ${spec.label ?? spec.table} of ${target}`,
            expected: allowedIf(admits(spec.rules[operation], standing(actor, target))),
            run: () => attempt(server, spec, operation, actor.client, org, selectFixture),
          });
        }
      }
    }
  }
  return cases;
}
