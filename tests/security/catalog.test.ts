import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import { openMigratedDatabase, type MigratedDatabase } from './migrated-database.ts';

// Rules the migrations follow everywhere, read back from the catalogue so that a new table,
// policy or function that forgets one of them fails here.

/** The rpc functions the signed-in role may call, and the one the anonymous role may call. */
const AUTHENTICATED_RPC = [
  'accept_invitation',
  'add_document_request_recipients',
  'add_documents_tags',
  'authorize_organization_mail_server',
  'authorize_password_reset_link',
  'cancel_invitation',
  'close_document_request',
  'convert_logo',
  'count_documents_matching',
  'create_calendar_feed',
  'create_document_category',
  'create_document_request',
  'create_member_group',
  'create_organization',
  'deactivate_user',
  'delete_documents',
  'delete_member_group',
  'disconnect_oauth_connection',
  'document_stats',
  'empty_trash',
  'find_duplicate_documents',
  'generate_recovery_codes',
  'get_invitation',
  'invite_user',
  'invite_user_by_email',
  'list_share_links',
  'list_trash',
  'logo_conversion',
  'mail_delivery',
  'make_master_admin',
  'members_with_two_factor',
  'my_document_categories',
  'onboarding_status',
  'organization_storage_usage',
  'purge_documents',
  'reactivate_user',
  'record_document_looks',
  'recovery_codes_left',
  'redeem_recovery_code',
  'remove_documents_tags',
  'remove_member_two_factor',
  'remove_organization_mail_server',
  'rename_document_category',
  'rename_member_group',
  'renew_document',
  'reorder_departments',
  'reorder_document_categories',
  'replace_document_file',
  'resend_document_request',
  'restore_document_version',
  'restore_documents',
  'retire_document_category',
  'retry_outbox_message',
  'revoke_calendar_feed',
  'revoke_share_link',
  'save_oauth_config',
  'search_documents',
  'send_documents_email',
  'send_password_reset',
  'send_test_email',
  'set_category_access',
  'set_documents_category',
  'set_documents_expiry',
  'set_member_group_members',
  'set_two_factor_requirement',
  'start_organization_export',
  'start_organization_import',
  'two_factor_status',
  'unretire_document_category',
  'update_onboarding',
  'update_organization',
  'update_user_role',
];
const ANON_RPC = ['get_invitation', 'mail_delivery'];

/** The restrictive policy of the second-factor rule, and its condition as Postgres prints it. */
const SECOND_FACTOR_POLICY = 'second factor proved when enrolled or required';
const SECOND_FACTOR_CHECK = '( SELECT private.second_factor_checked() AS second_factor_checked)';

async function rows<T>(db: Queryable, sql: string): Promise<T[]> {
  return (await db.query<T>(sql)).rows;
}

describe('security rules in the catalogue', () => {
  let database: MigratedDatabase;
  let db: Queryable;
  beforeAll(async () => {
    database = await openMigratedDatabase();
    db = database.db.serverWork();
  });
  afterAll(() => database?.close());

  it('enables row-level security on every table of public and private', async () => {
    const tables = await rows<{ name: string; rls: boolean }>(
      db,
      `select n.nspname || '.' || c.relname as name, c.relrowsecurity as rls
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'private') and c.relkind = 'r' order by 1`,
    );
    expect(tables.length).toBeGreaterThanOrEqual(13);
    expect(tables.filter((t) => !t.rls)).toEqual([]);
  });

  it('writes every policy to authenticated, one per operation, with wrapped helper calls', async () => {
    const policies = await rows<{
      tbl: string;
      name: string;
      cmd: string;
      roles: string[];
      permissive: string;
      expr: string;
    }>(
      db,
      `select p.schemaname || '.' || p.tablename as tbl, p.policyname as name, p.cmd,
              p.roles::text[] as roles, p.permissive,
              coalesce(p.qual, '') || ' ' || coalesce(p.with_check, '') as expr
       from pg_policies p where p.schemaname in ('public', 'storage') order by 1, 2`,
    );
    expect(policies.length).toBeGreaterThan(30);
    expect(policies.filter((p) => p.roles.join() !== 'authenticated')).toEqual([]);
    // The only restrictive policies are the second-factor rule (see the next test), for all
    // commands; every other policy lets one command through.
    const restrictive = policies.filter((p) => p.permissive === 'RESTRICTIVE');
    expect(
      restrictive.filter(
        (p) =>
          p.name !== SECOND_FACTOR_POLICY ||
          p.cmd !== 'ALL' ||
          p.expr !== `${SECOND_FACTOR_CHECK} ${SECOND_FACTOR_CHECK}`,
      ),
    ).toEqual([]);
    const permissive = policies.filter((p) => p.permissive === 'PERMISSIVE');
    expect(permissive.filter((p) => p.cmd === 'ALL')).toEqual([]);
    const perOperation = new Map<string, string[]>();
    for (const p of permissive.filter((p) => p.tbl.startsWith('public.'))) {
      const key = `${p.tbl} ${p.cmd}`;
      perOperation.set(key, [...(perOperation.get(key) ?? []), p.name]);
    }
    expect([...perOperation].filter(([, names]) => names.length > 1)).toEqual([]);
    // `auth.uid()` and the private helper only inside `(select …)`, so they run once per
    // statement; Postgres prints that as `( SELECT auth.uid() AS uid)`, or with a cast as
    // `( SELECT (private.caller_organization_id())::text AS …)`.
    const unwrapped = policies.filter((p) =>
      /(?<!SELECT \(?)(auth\.uid\(\)|private\.(caller_organization_id|second_factor_checked)\()/.test(
        p.expr,
      ),
    );
    expect(unwrapped).toEqual([]);
  });

  it('holds every table the browser reaches, and stored files, to a second factor once enrolled', async () => {
    const unguarded = await rows<{ name: string }>(
      db,
      `select n.nspname || '.' || c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r'
         and (n.nspname = 'public' or (n.nspname = 'storage' and c.relname = 'objects'))
         and (has_table_privilege('authenticated', c.oid, 'select, insert, update, delete')
              or has_any_column_privilege('authenticated', c.oid, 'select, insert, update'))
         and not exists (select 1 from pg_policies p
                         where p.schemaname = n.nspname and p.tablename = c.relname
                           and p.policyname = '${SECOND_FACTOR_POLICY}'
                           and p.permissive = 'RESTRICTIVE' and p.cmd = 'ALL')
       order by 1`,
    );
    expect(unguarded).toEqual([]);
  });

  it('gives the anonymous role no table, view or column of public', async () => {
    const granted = await rows<{ name: string }>(
      db,
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'v')
         and (has_table_privilege('anon', c.oid, 'select, insert, update, delete, truncate')
              or has_any_column_privilege('anon', c.oid, 'select, insert, update'))`,
    );
    expect(granted).toEqual([]);
  });

  // A view of private (member_category_access_rows) holds every organisation's rows; only the
  // definer helpers read it.
  it('gives the API roles no view of private', async () => {
    const granted = await rows<{ name: string }>(
      db,
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'private' and c.relkind in ('v', 'm')
         and (has_table_privilege('anon', c.oid, 'select, insert, update, delete')
              or has_table_privilege('authenticated', c.oid, 'select, insert, update, delete'))`,
    );
    expect(granted).toEqual([]);
  });

  it('lets each API role execute exactly its rpc functions, and nothing in private but the policy helpers', async () => {
    const executable = async (role: string, schema: string) =>
      (
        await rows<{ name: string }>(
          db,
          `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = '${schema}' and has_function_privilege('${role}', p.oid, 'execute')
           order by 1`,
        )
      ).map((r) => r.name);
    expect(await executable('anon', 'public')).toEqual(ANON_RPC);
    expect(await executable('authenticated', 'public')).toEqual(AUTHENTICATED_RPC);
    expect(await executable('anon', 'private')).toEqual([]);
    expect(await executable('authenticated', 'private')).toEqual([
      'caller_files_leaving',
      'caller_hidden_categories',
      'caller_organization_id',
      'caller_uneditable_categories',
      'document_category',
      'document_file_held',
      'document_file_readable',
      'file_in_categories',
      'message_names_documents_in',
      'second_factor_checked',
      'unfinished_import_file',
    ]);
    const usage = await rows<{ anon: boolean; authenticated: boolean }>(
      db,
      `select has_schema_privilege('anon', 'private', 'usage') as anon,
              has_schema_privilege('authenticated', 'private', 'usage') as authenticated`,
    );
    expect(usage).toEqual([{ anon: false, authenticated: false }]);
  });

  it('pins search_path on every function of public and private', async () => {
    const unpinned = await rows<{ name: string }>(
      db,
      `select n.nspname || '.' || p.proname as name
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private')
         and not coalesce('search_path=""' = any (p.proconfig), false)`,
    );
    expect(unpinned).toEqual([]);
  });

  it('keeps secrets out of reach of the browser roles', async () => {
    const reach = await rows<Record<string, boolean>>(
      db,
      `select
         has_column_privilege('authenticated', 'public.oauth_configs', 'client_secret', 'select') as client_secret,
         has_any_column_privilege('authenticated', 'public.oauth_connection_tokens', 'select, insert, update') as connection_tokens,
         has_any_column_privilege('authenticated', 'public.oauth_states', 'select, insert, update') as states,
         has_table_privilege('authenticated', 'public.oauth_configs', 'insert, update, delete') as write_configs,
         has_table_privilege('authenticated', 'public.oauth_connections', 'insert, update, delete') as write_connections,
         has_any_column_privilege('authenticated', 'public.oauth_connections', 'insert, update') as write_connection_columns,
         has_table_privilege('authenticated', 'public.user_invitations', 'insert, update, delete') as write_invitations,
         has_table_privilege('authenticated', 'public.organizations', 'insert, update, delete') as write_organizations,
         has_table_privilege('authenticated', 'public.outbox_messages', 'insert, update, delete') as write_outbox,
         has_table_privilege('authenticated', 'public.calendar_feeds', 'insert, update, delete') as write_calendar_feeds,
         has_table_privilege('service_role', 'private.calendar_feed_tokens', 'select') as read_calendar_tokens,
         has_column_privilege('authenticated', 'public.organization_mail_servers', 'password_ciphertext', 'select') as smtp_password,
         has_any_column_privilege('anon', 'public.organization_mail_servers', 'select, insert, update') as anon_mail_servers,
         has_table_privilege('authenticated', 'public.organization_mail_servers', 'insert, update, delete') as write_mail_servers,
         has_any_column_privilege('authenticated', 'public.organization_mail_servers', 'insert, update') as write_mail_server_columns,
         has_function_privilege('authenticated', 'public.store_organization_mail_server(uuid, text, integer, text, text, text)', 'execute') as store_mail_server`,
    );
    expect(reach).toEqual([
      {
        client_secret: false,
        connection_tokens: false,
        states: false,
        write_configs: false,
        write_connections: false,
        write_connection_columns: false,
        write_invitations: false,
        write_organizations: false,
        write_outbox: false,
        write_calendar_feeds: false,
        read_calendar_tokens: false,
        smtp_password: false,
        anon_mail_servers: false,
        write_mail_servers: false,
        write_mail_server_columns: false,
        store_mail_server: false,
      },
    ]);
  });

  it('lets signed-in users update only their name and reminder choice on profiles and document properties on documents', async () => {
    const updatable = async (table: string) =>
      (
        await rows<{ name: string }>(
          db,
          `select a.attname as name from pg_attribute a
           where a.attrelid = 'public.${table}'::regclass and a.attnum > 0 and not a.attisdropped
             and has_column_privilege('authenticated', a.attrelid, a.attnum, 'update')
           order by 1`,
        )
      ).map((r) => r.name);
    expect(await updatable('user_profiles')).toEqual(['email_reminders', 'full_name']);
    expect(await updatable('documents')).toEqual([
      'category',
      'description',
      'expiry_date',
      'name',
      'renewal_in_progress',
      'renewal_note',
      'responsible_id',
      'size',
      'tags',
    ]);
  });

  it('creates the private buckets with their limits', async () => {
    const buckets = await rows<Record<string, unknown>>(
      db,
      `select id, public, file_size_limit::int as file_size_limit, allowed_mime_types
       from storage.buckets order by id`,
    );
    expect(buckets).toEqual([
      {
        id: 'branding',
        public: false,
        file_size_limit: 5242880,
        allowed_mime_types: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'],
      },
      { id: 'documents', public: false, file_size_limit: 52428800, allowed_mime_types: null },
      {
        id: 'exports',
        public: false,
        file_size_limit: null,
        allowed_mime_types: ['application/zip'],
      },
      { id: 'imports', public: false, file_size_limit: null, allowed_mime_types: null },
    ]);
  });

  it('indexes every foreign key and every organisation column as a leading index column', async () => {
    const unindexed = await rows<{ name: string }>(
      db,
      `select c.relname || '.' || a.attname as name
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       where n.nspname = 'public' and c.relkind = 'r'
         and (a.attname in ('organization_id', 'user_id')
              or exists (select 1 from pg_constraint k
                         where k.conrelid = c.oid and k.contype = 'f' and k.conkey[1] = a.attnum))
         and not exists (select 1 from pg_index i
                         where i.indrelid = c.oid and i.indkey[0] = a.attnum)
       order by 1`,
    );
    expect(unindexed).toEqual([]);
  });
});
