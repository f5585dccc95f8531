import { pgliteTemplate, postgresAdminUrl, postgresTemplate } from './template.ts';

/** Builds the migrated template database once, before any test file starts. */
export default async function setup(): Promise<void> {
  const adminUrl = postgresAdminUrl();
  if (adminUrl) await postgresTemplate(adminUrl);
  else await pgliteTemplate();
}
