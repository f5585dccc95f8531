import { startTestS3Server, testingOnS3 } from './s3.ts';
import { createScratchRoot } from './scratch.ts';
import { pgliteTemplateSeed, postgresAdminUrl, postgresTemplate } from './template.ts';
import { buildWorkerBundles } from './worker-bundles.ts';

/**
 * Builds the template databases once, before any test file starts, the run's directory for
 * data directories (scratch.ts) and the servers' worker modules in JavaScript
 * (worker-bundles.ts), removed at the end; with TEST_OBJECT_STORAGE=s3, starts the run's S3
 * server (s3.ts), stopped at the end.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const removeScratch = await createScratchRoot();
  const removeBundles = await buildWorkerBundles();
  const adminUrl = postgresAdminUrl();
  for (const kind of ['platform', 'app'] as const) {
    if (adminUrl) await postgresTemplate(adminUrl, kind);
    else await pgliteTemplateSeed(kind);
  }
  const stopS3 = testingOnS3() ? await startTestS3Server() : null;
  if (!removeScratch && !removeBundles && !stopS3) return undefined;
  return async () => {
    await stopS3?.();
    await removeBundles?.();
    await removeScratch?.();
  };
}
