import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { rootDir } from '../support/template.ts';

// The edge functions run unchanged on Supabase's Deno runtime (hosted mode) and in the embedded
// backend (supabase/functions/README.md). Deno resolves a bare import only through the
// function's own deno.json, so every package a function imports must be listed there, as the
// npm package and version the embedded backend runs; and nothing may need Node or Deno APIs
// outside index.ts.

const functionsDir = path.join(rootDir, 'supabase', 'functions');

/** Every import specifier of a TypeScript file (static imports, re-exports, dynamic imports). */
async function importsOf(file: string): Promise<string[]> {
  const info = ts.preProcessFile(await readFile(file, 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

/** The TypeScript files a function folder consists of, and the files of `_shared/` it imports. */
async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries
    .filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.test.ts'))
    .map((entry) => path.join(folder, entry));
}

/**
 * `files` and the files of `_shared/` they import, directly or through each other: what Deno
 * loads for the function (a shared module no function imports needs no mapping).
 */
async function withSharedImports(files: string[]): Promise<string[]> {
  const shared = path.join(functionsDir, '_shared') + path.sep;
  const seen = new Set(files);
  const queue = [...files];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const specifier of await importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (target.startsWith(shared) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen];
}

async function functionFolders(): Promise<string[]> {
  const entries = await readdir(functionsDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && !/^[_.]/.test(entry.name))
    .map((entry) => entry.name);
}

async function installedVersion(name: string): Promise<string> {
  const manifest = path.join(rootDir, 'node_modules', name, 'package.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

/** The import map of a function's deno.json (an empty map without one). */
async function denoImports(name: string): Promise<Record<string, string>> {
  try {
    const text = await readFile(path.join(functionsDir, name, 'deno.json'), 'utf8');
    return (JSON.parse(text) as { imports?: Record<string, string> }).imports ?? {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

describe('edge functions import only what Deno can resolve', () => {
  it('has the oauth function among them', async () => {
    expect(await functionFolders()).toContain('oauth');
  });

  it('maps every package a function imports in its deno.json, at the installed version', async () => {
    const problems: string[] = [];
    for (const name of await functionFolders()) {
      const map = await denoImports(name);
      const files = await withSharedImports(await sourceFiles(path.join(functionsDir, name)));
      for (const file of files) {
        const where = path.relative(functionsDir, file);
        for (const specifier of await importsOf(file)) {
          if (specifier.startsWith('.')) {
            const target = path.resolve(path.dirname(file), specifier);
            if (!target.startsWith(functionsDir + path.sep)) {
              problems.push(`${where}: ${specifier} is outside supabase/functions`);
            }
            continue;
          }
          if (specifier.startsWith('node:')) {
            problems.push(`${where}: ${specifier} is a Node API`);
            continue;
          }
          const mapped = map[specifier];
          if (!mapped) {
            problems.push(`${where}: ${specifier} is not in ${name}/deno.json`);
            continue;
          }
          const expected = `npm:${specifier}@${await installedVersion(specifier)}`;
          if (mapped !== expected) {
            problems.push(`${name}/deno.json maps ${specifier} to ${mapped}, not ${expected}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('touches Deno only in index.ts', async () => {
    const problems: string[] = [];
    for (const name of await functionFolders()) {
      for (const file of await sourceFiles(path.join(functionsDir, name))) {
        if (path.basename(file) === 'index.ts') continue;
        if (/\bDeno\.[a-z]/.test(await readFile(file, 'utf8'))) {
          problems.push(path.relative(functionsDir, file));
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
