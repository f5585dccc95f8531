import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganisation, type Organisation } from '../security/world.ts';
import { recordingHandle, wrapHandles } from '../support/db-handles.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Every request's database work goes through the handle `requestScope()` gives it
// (server/http/request-scope.ts): its lane decides whose turns it takes, its role the deadline of
// its statements. A path that lost either would still answer, only unfairly or without a time
// limit, so the scopes are checked here as the database sees them.

let server: TestServer;
let church: Organisation;

beforeAll(async () => {
  server = await startTestServer();
  church = await createOrganisation(server, 'Scopes Church');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** The scopes (`lane role`) of the database work `work` caused, background jobs aside. */
async function scopesOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen = new Set<string>();
  const restore = wrapHandles(server.db, (handle) =>
    recordingHandle(handle, () => {
      const { scope } = handle;
      if (scope?.lane.startsWith('job:')) return;
      seen.add(scope ? `${scope.lane} ${scope.role}` : 'server work');
    }),
  );
  try {
    await work();
  } finally {
    restore();
  }
  return [...seen].sort();
}

/** A read no earlier request made (PGlite's read cache would answer it without the database). */
const distinctName = () => `scopes-${randomBytes(6).toString('hex')}`;

describe('the scope of each request’s database work', () => {
  it('a member’s REST read: their own lane, with the authenticated role’s deadline', async () => {
    const { master } = church;
    const scopes = await scopesOf(async () => {
      const { error } = await master.client
        .from('documents')
        .select('id')
        .eq('name', distinctName());
      expect(error).toBeNull();
    });
    expect(scopes).toEqual([`user:${master.userId} authenticated`]);
  });

  it('an anonymous REST read: the lane of its address, with the anon role’s deadline', async () => {
    const scopes = await scopesOf(async () => {
      // Refused by the table's grants: by the database, in the request's scope.
      const { error } = await server
        .anon()
        .from('documents')
        .select('id')
        .eq('name', distinctName());
      expect(error?.code).toBe('42501');
    });
    expect(scopes).toHaveLength(1);
    expect(scopes[0]).toMatch(/^address:\S+ anon$/);
    expect(scopes[0]).not.toBe('address:unknown anon');
  });

  it('the service role’s REST read: the service lane, with its deadline', async () => {
    const scopes = await scopesOf(async () => {
      const { error } = await server
        .service()
        .from('documents')
        .select('id')
        .eq('name', distinctName());
      expect(error).toBeNull();
    });
    expect(scopes).toEqual(['service service_role']);
  });

  it('auth and storage: the member’s lane, with the service role’s deadline', async () => {
    const { master } = church;
    const auth = await scopesOf(async () => {
      const { error } = await master.client.auth.getUser();
      expect(error).toBeNull();
    });
    expect(auth).toEqual([`user:${master.userId} service_role`]);
    const storage = await scopesOf(async () => {
      const { error } = await master.client.storage.from('documents').list(church.id);
      expect(error).toBeNull();
    });
    expect(storage).toEqual([`user:${master.userId} service_role`]);
  });

  it('a signed link, fetched without a token: its signer’s lane', async () => {
    const { master } = church;
    const path = `documents/${church.id}/${distinctName()}.txt`;
    const files = master.client.storage.from('documents');
    expect((await files.upload(path, 'signed', { contentType: 'text/plain' })).error).toBeNull();
    const { data, error } = await files.createSignedUrl(path, 3600);
    expect(error).toBeNull();
    const scopes = await scopesOf(async () => {
      const response = await fetch(data!.signedUrl);
      expect(await response.text()).toBe('signed');
    });
    expect(scopes).toEqual([`user:${master.userId} service_role`]);
  });

  it('a password check in the CPU pool: the lane of the request’s address', async () => {
    const lanes: string[] = [];
    const run = server.cpu.run.bind(server.cpu);
    server.cpu.run = ((name, args, options) => {
      lanes.push(options.lane);
      return run(name, args, options);
    }) as typeof server.cpu.run;
    try {
      const { error } = await server
        .anon()
        .auth.signInWithPassword({ email: church.master.email, password: 'not the password' });
      expect(error?.message).toBe('Invalid login credentials');
    } finally {
      server.cpu.run = run;
    }
    expect(lanes).toHaveLength(1);
    expect(lanes[0]).toMatch(/^address:\S+$/);
    expect(lanes[0]).not.toBe('address:unknown');
  });
});
