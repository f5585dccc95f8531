import { SchemaMissError } from './errors.ts';
import { closestName } from './similar-name.ts';
import type { Routine, SchemaCache } from './schema-types.ts';

export interface RoutineMatch {
  routine: Routine;
  /** The function takes one unnamed json/jsonb parameter, which receives the whole body. */
  wholeBody: boolean;
}

const JSON_TYPES = new Set(['json', 'jsonb']);

function takesWholeBody(routine: Routine): boolean {
  return (
    routine.params.length === 1 &&
    routine.params[0]!.name === '' &&
    JSON_TYPES.has(routine.params[0]!.type)
  );
}

/** PostgREST's rule: required parameters all given; optional ones may be; nothing else. */
function matchesArguments(routine: Routine, keys: Set<string>): boolean {
  if (routine.params.some((param) => param.name === '')) return false;
  if (routine.params.length === 0) return keys.size === 0;
  const names = new Set(routine.params.map((param) => param.name));
  for (const key of keys) if (!names.has(key)) return false;
  return routine.params.every((param) => !param.required || keys.has(param.name));
}

function signature(cache: SchemaCache, routine: Routine): string {
  const params = routine.params.map((param) => `${param.name} => ${param.type}`).join(', ');
  return `${cache.schema}.${routine.name}(${params})`;
}

/**
 * Finds the function `name` callable with argument names `keys` (POST body keys or GET query
 * parameters). Overloads that all match are 300 PGRST203; no match is 404 PGRST202 in
 * PostgREST's wording, with a hint naming a close function when there is one.
 */
export function findRoutine(
  cache: SchemaCache,
  name: string,
  keys: Set<string>,
  isPost: boolean,
): RoutineMatch {
  const candidates = cache.routines.get(name) ?? [];
  const named = candidates.filter((routine) => matchesArguments(routine, keys));
  const wholeBody = isPost ? candidates.filter(takesWholeBody) : [];
  const ambiguous = (routines: Routine[]) =>
    new SchemaMissError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${routines.map((r) => signature(cache, r)).join(', ')}`,
      {
        hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      },
    );
  if (named.length === 1) return { routine: named[0]!, wholeBody: false };
  if (named.length > 1) throw ambiguous(named);
  if (wholeBody.length === 1) return { routine: wholeBody[0]!, wholeBody: true };
  if (wholeBody.length > 1) throw ambiguous(wholeBody);

  const sorted = [...keys].sort();
  const qualifiedName = `${cache.schema}.${name}`;
  const withParams =
    sorted.length === 0
      ? ' without parameters'
      : ` with parameter${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}`;
  const message = `Could not find the function ${qualifiedName}${
    sorted.length === 0 ? ' without parameters' : `(${sorted.join(', ')})`
  } in the schema cache`;
  const details = `Searched for the function ${qualifiedName}${withParams}${
    isPost ? ' or with a single unnamed json/jsonb parameter' : ''
  }, but no matches were found in the schema cache.`;
  const similar =
    candidates.length > 0
      ? `${name}(${[...new Set(candidates.flatMap((r) => r.params.map((p) => p.name)))].sort().join(', ')})`
      : closestName(name, [...cache.routines.keys()]);
  throw new SchemaMissError(404, 'PGRST202', message, {
    details,
    hint: similar ? `Perhaps you meant to call the function ${cache.schema}.${similar}` : null,
  });
}
