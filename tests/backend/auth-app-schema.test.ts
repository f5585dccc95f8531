import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, uniqueEmail } from './auth-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ schema: 'app' });
});
afterAll(async () => {
  await server?.close();
});

describe('sign-up with the app migrations applied', () => {
  it('creates the user profile through the trigger of the migrations on auth.users', async () => {
    const email = uniqueEmail('member');
    const { data, error } = await server.anon().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    const { rows } = await server.db
      .serverWork()
      .query<{ email: string; role: string; is_active: boolean }>(
        'select email, role, is_active from public.user_profiles where id = $1',
        [data.user!.id],
      );
    expect(rows).toEqual([{ email, role: 'user', is_active: true }]);
  });
});
