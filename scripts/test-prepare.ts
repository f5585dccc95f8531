import { buildIfStale } from './build-if-stale.ts';
import {
  pgliteTemplateSeed,
  postgresAdminUrl,
  postgresTemplate,
} from '../tests/support/template.ts';

// `npm test`'s work for its later passes, run beside the first pass (scripts/test.ts): that pass
// spends its first 20-30 s on one core (Vitest's start, then its global set-ups building the
// PGlite templates one after the other in its main process), and this fills the other core with
// what would otherwise be built later on the critical path. Each step is what the pass that needs
// it would build at its own start, built the same way (same code, same names), so that pass
// finds it made and skips it; a step not finished in time is built there as before.
//   1. the PGlite `platform` template, which the backend project's global set-up builds after the
//      app project's has built the `app` one (tests/support/global-setup.ts)
//   2. the SPA in dist/ (or DIST_DIR), which the end-to-end pass's `npm start` builds first
//   3. the PostgreSQL templates, which the PostgreSQL pass's global set-up builds first
const started = Date.now();
const step = async (title: string, work: () => Promise<unknown>) => {
  const from = Date.now();
  await work();
  console.log(
    `${title}: ${((Date.now() - from) / 1000).toFixed(1)} s (${((Date.now() - started) / 1000).toFixed(1)} s in)`,
  );
};

await step('PGlite platform template', () => pgliteTemplateSeed('platform'));
if (process.argv.includes('--app')) await step('SPA build', () => buildIfStale());
const adminUrl = postgresAdminUrl();
if (adminUrl) {
  await step('PostgreSQL templates', async () => {
    for (const kind of ['platform', 'app'] as const) await postgresTemplate(adminUrl, kind);
  });
}
