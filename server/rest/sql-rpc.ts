import type { Routine, RoutineParam } from './schema-types.ts';
import { bodyFromSql } from './sql-body.ts';
import type { Params } from './sql-util.ts';
import { ident, qualified } from './sql-util.ts';

/** The CTE holding the function's result rows. */
export const CALL_CTE = 'pgrst_call';

/** How the arguments reach the function. */
export type CallArguments =
  /** POST: named arguments read from the JSON body with each parameter's type. */
  | { kind: 'body'; json: string; params: RoutineParam[] }
  /** POST to a function with one unnamed json/jsonb parameter: the whole body. */
  | { kind: 'whole-body'; json: string; param: RoutineParam }
  /** GET/HEAD: text values from the query string, cast to each parameter's type. */
  | { kind: 'query'; values: [RoutineParam, string][] };

const argPrefix = (param: RoutineParam) => (param.variadic ? 'variadic ' : '');

/**
 * The SELECT that calls the function once, named `pgrst_call`: a scalar (or set of scalars) is
 * column `pgrst_scalar`; a composite result keeps its own columns.
 */
export function callSql(
  schema: string,
  routine: Routine,
  args: CallArguments,
  params: Params,
): string {
  const fn = qualified(schema, routine.name);
  let from = '';
  let argList: string;
  switch (args.kind) {
    case 'whole-body':
      argList = `${params.add(args.json)}::${args.param.type}`;
      break;
    case 'query':
      argList = args.values
        .map(
          ([param, value]) =>
            `${argPrefix(param)}${ident(param.name)} := ${params.add(value)}::${param.type}`,
        )
        .join(', ');
      break;
    case 'body': {
      if (args.params.length > 0) {
        const columns = args.params.map((param) => ({
          name: param.name,
          type: param.type,
          baseType: param.type,
          nullable: true,
          defaultExpr: null,
          generated: false,
        }));
        from = bodyFromSql(
          { json: args.json, isArray: false, columns, applyDefaults: false },
          params,
          true,
        );
      }
      argList = args.params
        .map(
          (param) => `${argPrefix(param)}${ident(param.name)} := pgrst_body.${ident(param.name)}`,
        )
        .join(', ');
      break;
    }
  }
  const call = `${fn}(${argList})`;
  if (routine.returnKind !== 'composite') {
    return `select ${call} as pgrst_scalar${from ? ` from ${from}` : ''}`;
  }
  return from
    ? `select pgrst_fn.* from ${from}, lateral ${call} as pgrst_fn`
    : `select pgrst_fn.* from ${call} as pgrst_fn`;
}
