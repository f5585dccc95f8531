import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { buildWorld, type World } from './actors.ts';
import { attackCases } from './attack-cases.ts';
import type { Case, Outcome } from './cases.ts';
import { categoryAccessCases } from './category-access-cases.ts';
import { functionCases } from './function-cases.ts';
import { linkCases } from './link-cases.ts';
import { logoCases } from './logo-cases.ts';
import { mailServerCases } from './mail-server-cases.ts';
import { mailWorkerCases } from './mail-worker-cases.ts';
import { ownRowCases } from './own-row-cases.ts';
import { renewalCases } from './renewal-cases.ts';
import { rpcCases } from './rpc-cases.ts';
import { searchCases } from './search-cases.ts';
import { secondFactorCases } from './second-factor-cases.ts';
import { settingsCases } from './settings-cases.ts';
import { storageCases } from './storage-cases.ts';
import { tableCases } from './table-cases.ts';
import { transferCases } from './transfer-cases.ts';
import { trashCases } from './trash-cases.ts';

/**
 * The security matrix: two organisations × {anonymous, user, admin, master_admin, deactivated
 * user, signed-in user without organisation} × every table (select, insert, update, delete),
 * every rpc function (search-cases.ts: searching, duplicates, bulk actions; trash-cases.ts: the
 * trash; transfer-cases.ts: export and import), every bucket operation and the edge functions'
 * actions that change data, plus named attacks, (second-factor-cases.ts) people who enrolled a
 * second factor, with a password-only session and with one that proved the code, and
 * (category-access-cases.ts) Viewers, users and admins in a group that may view or edit a
 * restricted category, or in none. Everything goes through unmodified supabase-js against the
 * embedded server; every case checks its effect in the database past row-level security (with
 * the service role, or on the server's own connection). The expected outcomes come from the
 * rules written out in the case files (`*-cases.ts`).
 *
 * The suites are run in parts, one test file each (`matrix-<part>.test.ts`), so that vitest runs
 * the parts side by side: one file running every suite took minutes alone at the end of a run.
 * Each part starts its own server and builds its own world of both organisations, and runs its
 * suites in the order listed; matrix-parts.test.ts checks that every case file is in a part and
 * every part has its file.
 */
export type Suite = [title: string, build: (server: TestServer, world: World) => Case[]];

export const MATRIX_PARTS = {
  tables: [
    ['tables and the view', tableCases],
    ['own rows', ownRowCases],
  ],
  rpc: [
    ['rpc functions', rpcCases],
    ['search, duplicates and bulk actions', searchCases],
  ],
  files: [
    ['storage buckets', storageCases],
    ['edge functions', functionCases],
    ['the logo as an image', logoCases],
  ],
  mail: [
    ['renewals, e-mail and the calendar feed', renewalCases],
    ['the mail worker and its steps', mailWorkerCases],
    ["the organisation's own mail server", mailServerCases],
  ],
  documents: [
    ['the trash and versions', trashCases],
    ['share links and document requests', linkCases],
    ['export and import', transferCases],
  ],
  accounts: [
    ['named attacks', attackCases],
    ['a second factor once enrolled', secondFactorCases],
    ["the organisation's settings and a way back in", settingsCases],
  ],
  // Alone: it restricts a category of each organisation.
  'category-access': [['access per category and the Viewer role', categoryAccessCases]],
} satisfies Record<string, Suite[]>;

export type MatrixPart = keyof typeof MATRIX_PARTS;

/** Declares the tests of one part of the matrix: one test per suite, listing every failure. */
export function securityMatrix(part: MatrixPart): void {
  const suites: Suite[] = MATRIX_PARTS[part];
  describe(`security matrix: ${part}`, () => {
    let server: TestServer;
    let world: World;
    const counts = new Map<string, number>();
    const outcomes = new Map<string, number>();

    beforeAll(async () => {
      server = await startTestServer();
      world = await buildWorld(server);
    }, 300_000);

    afterAll(async () => {
      const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
      const groups = [...counts].map(([group, n]) => `${group} ${n}`).join(', ');
      const kinds = [...outcomes].map(([kind, n]) => `${n} ${kind}`).join(', ');
      console.log(`security matrix (${part}): ran ${total} cases (${groups}); expected ${kinds}`);
      await server?.close();
    });

    for (const [title, build] of suites) {
      it(title, { timeout: 900_000 }, async () => {
        const failures: string[] = [];
        for (const testCase of build(server, world)) {
          let observed: Outcome;
          try {
            observed = await testCase.run();
          } catch (error) {
            observed = `error: the case threw ${(error as Error).message}`;
          }
          counts.set(title, (counts.get(title) ?? 0) + 1);
          const kind = testCase.expected.startsWith('error:') ? 'error texts' : testCase.expected;
          outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
          if (observed !== testCase.expected) {
            failures.push(
              `[${testCase.group}] ${testCase.name}: expected ${testCase.expected}, got ${observed}`,
            );
          }
        }
        expect(failures).toEqual([]);
      });
    }
  });
}
