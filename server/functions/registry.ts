import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  CreateHandler,
  FunctionEnv,
  FunctionHandler,
} from '../../supabase/functions/_shared/function-env.ts';

/** A function folder found at start-up. */
export interface EdgeFunction {
  name: string;
  /** Whether callers must send a valid JWT (`[functions.<name>] verify_jwt`, default true). */
  verifyJwt: boolean;
  /** The handler, built on first use and then reused; rejects when the function cannot boot. */
  handler(): Promise<FunctionHandler>;
}

export interface LoadFunctionsOptions {
  functionsDir: string;
  verifyJwt: (name: string) => boolean;
  /** The environment to build a function's handler with (asked once, on first use). */
  env: (name: string) => Promise<FunctionEnv>;
}

// Function names as the Supabase CLI accepts them; `_shared` and other `_`/`.` folders are not
// functions but code they share.
const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isFile() ?? false;
}

/**
 * Finds `{functionsDir}/<name>/handler.ts` for every function folder and imports it. A missing
 * directory means no functions. A module that fails to import, or lacks `createHandler`, is
 * still listed: its calls then fail with `BOOT_ERROR`, as a function that fails to boot does on
 * Supabase, and the rest of the server runs on.
 */
export async function loadFunctions(
  options: LoadFunctionsOptions,
): Promise<Map<string, EdgeFunction>> {
  const entries = await readdir(options.functionsDir, { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const functions = new Map<string, EdgeFunction>();
  const imports: Promise<unknown>[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !FUNCTION_NAME.test(entry.name)) continue;
    const name = entry.name;
    const file = path.join(options.functionsDir, name, 'handler.ts');
    if (!(await isFile(file))) {
      console.warn(`functions: ${name}/ has no handler.ts and is not served`);
      continue;
    }
    const factory = importFactory(name, file);
    let built: Promise<FunctionHandler> | undefined;
    functions.set(name, {
      name,
      verifyJwt: options.verifyJwt(name),
      handler() {
        built ??= factory.then(async (createHandler) => createHandler(await options.env(name)));
        return built;
      },
    });
    // Report a broken function at start-up, not only on its first call.
    imports.push(
      factory.catch((error: unknown) => console.error(`functions: ${name} failed to load:`, error)),
    );
  }
  await Promise.all(imports);
  return functions;
}

async function importFactory(name: string, file: string): Promise<CreateHandler> {
  const module = (await import(pathToFileURL(file).href)) as { createHandler?: unknown };
  if (typeof module.createHandler !== 'function') {
    throw new Error(`${name}/handler.ts does not export createHandler`);
  }
  return module.createHandler as CreateHandler;
}
