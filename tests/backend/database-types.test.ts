import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateTypes, typesFile } from '../../scripts/gen-types.ts';

// src/lib/database.types.ts is generated from the schema supabase/migrations builds; the SPA's
// queries are checked against it. A migration that changes a table, a function or a check
// constraint's values without `npm run gen:types` fails here.
describe('src/lib/database.types.ts', () => {
  it('is what npm run gen:types generates from the migrations now', async () => {
    const committed = await readFile(typesFile, 'utf8');
    const generated = await generateTypes();
    expect(committed === generated, 'out of date: run npm run gen:types').toBe(true);
    // A fresh database is migrated for it: slow on a busy machine.
  }, 120_000);
});
