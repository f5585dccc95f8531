/**
 * Runs under Deno (tests/backend/functions-deno.test.ts): serves one edge function's handler, as
 * Supabase's edge runtime would, on a free port of 127.0.0.1, built from this process's
 * environment. Prints `listening <port>` once it accepts requests.
 *
 * `deno run --config supabase/functions/<name>/deno.json tests/deno/serve-function.ts <name>`
 */
import type { CreateHandler } from '../../supabase/functions/_shared/function-env.ts';

declare const Deno: {
  args: string[];
  env: { toObject(): Record<string, string> };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const name = Deno.args[0];
if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not a function name: ${name}`);
const { createHandler } = (await import(`../../supabase/functions/${name}/handler.ts`)) as {
  createHandler: CreateHandler;
};
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  },
  createHandler(Deno.env.toObject()),
);
