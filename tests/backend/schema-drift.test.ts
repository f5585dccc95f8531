import { describe, expect, it } from 'vitest';
import { compareCatalogues, readCatalogue } from '../../scripts/schema/catalogue.ts';
import { openMigratedDatabase } from '../security/migrated-database.ts';

// supabase/schemas/ holds the living definition of every object; supabase/migrations/ is how a
// database gets there (the baseline, then one delta migration per change). A change made in one
// and forgotten in the other fails here, naming the object and how it differs: copy the
// migration's change into the object's schema file, or write the migration a schema edit needs
// (docs/data-model.md, "Changing the schema").
describe('supabase/schemas and supabase/migrations', () => {
  it('build the same catalogue: tables, columns, constraints, indexes, functions, policies, triggers, grants and seeded rows', async () => {
    const fromMigrations = await openMigratedDatabase('app');
    const fromSchemas = await openMigratedDatabase('schemas');
    try {
      const differences = compareCatalogues(
        await readCatalogue(fromMigrations.db.serverWork()),
        await readCatalogue(fromSchemas.db.serverWork()),
        ['supabase/migrations', 'supabase/schemas'],
      );
      expect(differences.join('\n')).toBe('');
    } finally {
      await fromMigrations.close();
      await fromSchemas.close();
    }
    // Two migrated databases are built (or loaded from their templates): slow on a busy machine.
  }, 180_000);
});
