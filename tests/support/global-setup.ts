import { pgliteTemplate, postgresAdminUrl, postgresTemplate } from './template.ts';

/** Builds the template databases once, before any test file starts. */
export default async function setup(): Promise<void> {
  const adminUrl = postgresAdminUrl();
  for (const kind of ['platform', 'app'] as const) {
    if (adminUrl) await postgresTemplate(adminUrl, kind);
    else await pgliteTemplate(kind);
  }
}
