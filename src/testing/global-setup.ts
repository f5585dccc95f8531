import type { TestProject } from 'vitest/node';
import { createScratchRoot } from '../../tests/support/scratch.ts';
import { startTestServer } from '../../tests/support/server.ts';
import { buildWorkerBundles } from '../../tests/support/worker-bundles.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    backend: { url: string; anonKey: string; serviceRoleKey: string };
    /** A second backend where sign-up is closed ([auth] enable_signup = false). */
    closedSignUpBackend: { url: string; anonKey: string; serviceRoleKey: string };
  }
}

/**
 * Component tests talk to a real embedded backend (one per test run, on a fresh migrated
 * database); each test signs up its own users, so tests never see each other's data.
 */
export default async function setup(project: TestProject) {
  // Their data directories on tmpfs, as the backend tests' (scratch.ts): this set-up may run
  // before the backend project's, or without it.
  const removeScratch = await createScratchRoot();
  const removeBundles = await buildWorkerBundles();
  // The OAuth tests' mock providers listen on 127.0.0.1: the installation allows that host.
  const [server, closed] = await Promise.all([
    startTestServer({ env: { OAUTH_ALLOWED_HOSTS: '127.0.0.1' } }),
    startTestServer({ env: { AUTH_ENABLE_SIGNUP: 'false' } }),
  ]);
  const describe = (s: typeof server) => ({
    url: s.url,
    anonKey: s.keys.anonKey,
    serviceRoleKey: s.keys.serviceRoleKey,
  });
  project.provide('backend', describe(server));
  project.provide('closedSignUpBackend', describe(closed));
  return async () => {
    await Promise.all([server.close(), closed.close()]);
    await removeBundles?.();
    await removeScratch?.();
  };
}
