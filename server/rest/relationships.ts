import { SchemaMissError } from './errors.ts';
import type { Relationship, SchemaCache } from './schema-types.ts';

const singleColumn = (rel: Relationship, side: 0 | 1): string | null =>
  rel.columns.length === 1 ? rel.columns[0]![side] : null;

function describe(rel: Relationship) {
  const cols = (side: 0 | 1) => `(${rel.columns.map((pair) => pair[side]).join(', ')})`;
  return {
    cardinality: rel.cardinality,
    embedding: `${rel.table} with ${rel.foreignTable}`,
    relationship: `${rel.constraint} using ${rel.table}${cols(0)} and ${rel.foreignTable}${cols(1)}`,
  };
}

/**
 * Finds the relationship to embed `target` from `origin`, with PostgREST's rules: the target is
 * a table name, a foreign-key constraint name or a foreign-key column of the origin; the hint
 * names a constraint or a column on either side. Self-references follow PostgREST's convention
 * (table name = the one-to-many side, column name = the many-to-one side). None is 400
 * PGRST200; several are 300 PGRST201 listing the candidates.
 */
export function findRelationship(
  cache: SchemaCache,
  origin: string,
  target: string,
  hint: string | undefined,
): Relationship {
  const all = cache.relationships.get(origin) ?? [];
  const isO2M = (rel: Relationship) => rel.cardinality === 'one-to-many';
  const isM2O = (rel: Relationship) => rel.cardinality === 'many-to-one';
  const matches = all.filter((rel) => {
    if (rel.isSelf) {
      if (hint === undefined) {
        return (
          (target === rel.foreignTable && isO2M(rel)) ||
          (singleColumn(rel, 0) === target && isM2O(rel))
        );
      }
      return target === rel.foreignTable && isO2M(rel) && singleColumn(rel, 1) === hint;
    }
    if (hint === undefined) {
      return (
        target === rel.foreignTable || target === rel.constraint || singleColumn(rel, 0) === target
      );
    }
    return (
      target === rel.foreignTable &&
      (hint === rel.constraint || singleColumn(rel, 0) === hint || singleColumn(rel, 1) === hint)
    );
  });
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new SchemaMissError(
      400,
      'PGRST200',
      `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
      {
        details: `Searched for a foreign key relationship between '${origin}' and '${target}'${
          hint === undefined ? '' : ` using the hint '${hint}'`
        } in the schema '${cache.schema}', but no matches were found.`,
      },
    );
  }
  throw new SchemaMissError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${origin}' and '${target}'`,
    {
      details: matches.map(describe),
      hint: `Try changing '${target}' to one of the following: ${matches
        .map((rel) => `'${rel.foreignTable}!${rel.constraint}'`)
        .join(', ')}. Find the desired relationship in the 'details' key.`,
    },
  );
}
