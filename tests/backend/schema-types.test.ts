import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANNUAL_REPORT_STATUSES,
  CALENDAR_FEED_SCOPES,
  CORPORATE_ENTITY_TYPES,
  CORPORATE_STATUSES,
  DOCUMENT_CATEGORIES,
  DOCUMENT_STATUSES,
  DOCUMENT_VERSION_CHANGES,
  EXPORT_STATUSES,
  IMPORT_STATUSES,
  DOCUMENT_TEXT_STATES,
  INTEGRATION_CATEGORIES,
  INVITABLE_ROLES,
  OPERATIONS_CATEGORY_KEYS,
  OUTBOX_MESSAGE_KINDS,
  OUTBOX_MESSAGE_STATUSES,
  REMINDER_RECIPIENTS,
  USER_ROLES,
} from '../../src/lib/database.types.ts';
import { openMigratedDatabase, type MigratedDatabase } from '../security/migrated-database.ts';
import { shapeFromDatabase, shapeFromTypes, type SchemaShape } from '../security/schema-shape.ts';
import { rootDir } from '../support/template.ts';

// The hand-kept `Database` type must describe exactly the schema the migrations build, so that
// the SPA's queries are checked against the real tables and functions.
describe('src/lib/database.types.ts', () => {
  let database: MigratedDatabase;
  let live: SchemaShape;
  let declared: SchemaShape;

  beforeAll(async () => {
    database = await openMigratedDatabase();
    live = await shapeFromDatabase(database.db);
    declared = shapeFromTypes(path.join(rootDir, 'src', 'lib', 'database.types.ts'));
  });
  afterAll(() => database?.close());

  it('declares every table with its columns, nullability, type families, value lists and insert rules', () => {
    expect(Object.keys(declared.tables)).toEqual(Object.keys(live.tables));
    for (const [name, table] of Object.entries(live.tables)) {
      expect({ table: name, columns: declared.tables[name]!.columns }).toEqual({
        table: name,
        columns: table.columns,
      });
    }
  });

  it('declares every foreign key as supabase-js relationships', () => {
    for (const [name, table] of Object.entries(live.tables)) {
      expect({ table: name, relationships: declared.tables[name]!.relationships }).toEqual({
        table: name,
        relationships: table.relationships,
      });
    }
  });

  it('declares every view with its columns', () => {
    expect(declared.views).toEqual(live.views);
  });

  it('declares every function with its arguments (names, order, types) and its result', () => {
    expect(Object.keys(declared.functions)).toEqual(Object.keys(live.functions));
    for (const [name, fn] of Object.entries(live.functions)) {
      expect({ function: name, ...declared.functions[name] }).toEqual({ function: name, ...fn });
    }
  });

  it('declares every composite type with its fields', () => {
    expect(declared.compositeTypes).toEqual(live.compositeTypes);
  });

  it('exports value lists equal to the check constraints', () => {
    const column = (table: string, name: string) => live.tables[table]!.columns[name]!.values;
    const sorted = (values: readonly string[]) => [...values].sort();
    expect(column('user_profiles', 'role')).toEqual(sorted(USER_ROLES));
    expect(column('user_invitations', 'role')).toEqual(sorted(INVITABLE_ROLES));
    expect(column('documents', 'category')).toEqual(sorted(DOCUMENT_CATEGORIES));
    expect(column('documents', 'status')).toEqual(sorted(DOCUMENT_STATUSES));
    expect(column('document_texts', 'state')).toEqual(sorted(DOCUMENT_TEXT_STATES));
    expect(column('custom_integrations', 'operations_category')).toEqual(
      sorted(OPERATIONS_CATEGORY_KEYS),
    );
    expect(column('custom_integrations', 'category')).toEqual(sorted(INTEGRATION_CATEGORIES));
    expect(column('integration_customizations', 'category')).toEqual(
      sorted(INTEGRATION_CATEGORIES),
    );
    expect(column('corporate_status', 'entity_type')).toEqual(sorted(CORPORATE_ENTITY_TYPES));
    expect(column('corporate_status', 'status')).toEqual(sorted(CORPORATE_STATUSES));
    expect(column('corporate_status', 'annual_report_status')).toEqual(
      sorted(ANNUAL_REPORT_STATUSES),
    );
    expect(column('document_versions', 'change')).toEqual(sorted(DOCUMENT_VERSION_CHANGES));
    expect(column('calendar_feeds', 'scope')).toEqual(sorted(CALENDAR_FEED_SCOPES));
    expect(column('reminder_settings', 'recipients')).toEqual(sorted(REMINDER_RECIPIENTS));
    expect(column('outbox_messages', 'kind')).toEqual(sorted(OUTBOX_MESSAGE_KINDS));
    expect(column('outbox_messages', 'status')).toEqual(sorted(OUTBOX_MESSAGE_STATUSES));
    expect(column('organization_exports', 'status')).toEqual(sorted(EXPORT_STATUSES));
    expect(column('organization_imports', 'status')).toEqual(sorted(IMPORT_STATUSES));
    // The specification's counts.
    expect(DOCUMENT_CATEGORIES).toHaveLength(14);
    expect(OPERATIONS_CATEGORY_KEYS).toHaveLength(9);
  });
});
