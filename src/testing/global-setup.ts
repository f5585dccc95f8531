import type { TestProject } from 'vitest/node';
import { startTestServer } from '../../tests/support/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    backend: { url: string; anonKey: string; serviceRoleKey: string };
  }
}

/**
 * Component tests talk to a real embedded backend (one per test run, on a fresh migrated
 * database); each test signs up its own users, so tests never see each other's data.
 */
export default async function setup(project: TestProject) {
  // The OAuth tests' mock providers listen on 127.0.0.1: the installation allows that host.
  const server = await startTestServer({ env: { OAUTH_ALLOWED_HOSTS: '127.0.0.1' } });
  project.provide('backend', {
    url: server.url,
    anonKey: server.keys.anonKey,
    serviceRoleKey: server.keys.serviceRoleKey,
  });
  return async () => {
    await server.close();
  };
}
