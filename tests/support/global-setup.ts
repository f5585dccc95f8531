import { createScratchRoot } from './scratch.ts';
import { pgliteTemplate, postgresAdminUrl, postgresTemplate } from './template.ts';

/**
 * Builds the template databases once, before any test file starts, and the run's directory for
 * data directories (scratch.ts), removed at the end.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const removeScratch = await createScratchRoot();
  const adminUrl = postgresAdminUrl();
  for (const kind of ['platform', 'app'] as const) {
    if (adminUrl) await postgresTemplate(adminUrl, kind);
    else await pgliteTemplate(kind);
  }
  return removeScratch ?? undefined;
}
