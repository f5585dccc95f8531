import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MATRIX_PARTS, type Suite } from './matrix.ts';

// The matrix runs in parts, one file each (matrix.ts): a case file left out of every part, or a
// part without its file, would be cases that silently never run.
const here = import.meta.dirname;
const suites: Suite[] = Object.values(MATRIX_PARTS).flat();

describe('the parts of the security matrix', () => {
  it('run every suite of every case file, each once', async () => {
    const caseFiles = (await readdir(here)).filter((name) => name.endsWith('-cases.ts'));
    expect(caseFiles.length).toBeGreaterThan(15);
    const builders: [string, unknown][] = [];
    for (const file of caseFiles) {
      const exports = (await import(path.join(here, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (name.endsWith('Cases') && typeof value === 'function') builders.push([name, value]);
      }
    }
    expect(builders.map(([name]) => name).sort()).toEqual(
      expect.arrayContaining(['tableCases', 'rpcCases', 'categoryAccessCases']),
    );
    const runs = (builder: unknown) => suites.filter(([, build]) => build === builder).length;
    expect(builders.map(([name, builder]) => `${name} ${runs(builder)}`)).toEqual(
      builders.map(([name]) => `${name} 1`),
    );
    expect(suites.length).toBe(builders.length);
  });

  it('each have their test file, and no file runs anything else', async () => {
    const files = (await readdir(here)).filter((name) => /^matrix-.+\.test\.ts$/.test(name));
    const partFiles = files.filter((name) => name !== 'matrix-parts.test.ts').sort();
    expect(partFiles).toEqual(
      Object.keys(MATRIX_PARTS)
        .map((part) => `matrix-${part}.test.ts`)
        .sort(),
    );
    for (const file of partFiles) {
      const part = /^matrix-(.+)\.test\.ts$/.exec(file)![1];
      const source = await readFile(path.join(here, file), 'utf8');
      expect(source, file).toContain(`securityMatrix('${part}');`);
    }
  });
});
