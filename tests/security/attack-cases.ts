/**
 * Named attacks the matrix does not spell out by itself: documents smuggled into another
 * organisation's folder, forged uploaders, moved rows, secrets and tokens asked for by column
 * name or schema, and storage paths that climb out of the own folder.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { TestServer } from '../support/server.ts';
import type { Actor, World } from './actors.ts';
import { allowedIf, judgeWrite, type Case, type Outcome } from './cases.ts';
import { PASSWORD, invite, uniqueEmail, unwrap } from './world.ts';

const tag = () => randomBytes(4).toString('hex');

function actorOf(world: World, label: string): Actor {
  const actor = world.actors.find((a) => a.label === label);
  if (!actor) throw new Error(`no actor ${label}`);
  return actor;
}

/** Any answer that carries rows or the secret counts as a leak. */
function leaks(result: { data: unknown; error: unknown }, secret?: string): Outcome {
  const body = JSON.stringify(result.data ?? null) + JSON.stringify(result.error ?? null);
  if (secret && body.includes(secret)) return 'allowed';
  const rows = Array.isArray(result.data) ? result.data.length : result.data ? 1 : 0;
  return allowedIf(!result.error && rows > 0);
}

export function attackCases(server: TestServer, world: World): Case[] {
  const service = () => server.service();
  const a = world.orgs.A.organisation;
  const b = world.orgs.B.organisation;
  const aUser = actorOf(world, 'A.user');
  const aAdmin = actorOf(world, 'A.admin');
  const aMaster = actorOf(world, 'A.master_admin');
  const cases: Case[] = [];
  const attack = (name: string, run: () => Promise<Outcome>, expected: Outcome = 'denied') =>
    cases.push({ group: 'attacks', name, expected, run });

  /**
   * Rows read or written on the server's own connection, past row-level security as the service
   * role's REST requests were: the cases' fixtures and the checks of their effects, which are not
   * what a case tests (its own request is), without a REST round trip each.
   */
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await server.db.serverWork().query<T & Record<string, unknown>>(text, params)).rows;
  /** A document's row as JSON (`row_to_json`, as the REST API gives rows), or undefined. */
  const documentRow = async (id: string) => {
    const [row] = await sql<{ row: string }>(
      'select row_to_json(d)::text as row from public.documents d where d.id = $1',
      [id],
    );
    return row ? (JSON.parse(row.row) as Record<string, unknown>) : undefined;
  };

  // ---- documents -----------------------------------------------------------------------------
  const documentExists = async (id: string) => (await documentRow(id)) !== undefined;
  const insertDocument = async (client: SupabaseClient, overrides: Record<string, unknown>) => {
    const id = randomUUID();
    const { error } = await client.from('documents').insert({
      id,
      organization_id: a.id,
      name: 'smuggled.pdf',
      category: 'Legal',
      file_path: `documents/${a.id}/${Date.now()}-${tag()}.pdf`,
      size: 10,
      ...overrides,
    });
    return judgeWrite(error, await documentExists(id));
  };
  attack("A.user inserts a document of A whose file lies in B's folder", () =>
    insertDocument(aUser.client, { file_path: `documents/${b.id}/${Date.now()}-x.pdf` }),
  );
  attack('A.user inserts a document whose path climbs out with ..', () =>
    insertDocument(aUser.client, { file_path: `documents/${a.id}/../${b.id}/x.pdf` }),
  );
  attack('A.user inserts a document whose path lacks the documents/ prefix', () =>
    insertDocument(aUser.client, { file_path: `${a.id}/x.pdf` }),
  );
  attack('A.user inserts a document into a subfolder of the own folder', () =>
    insertDocument(aUser.client, { file_path: `documents/${a.id}/sub/x.pdf` }),
  );
  attack("A.user inserts a document into B with B's folder", () =>
    insertDocument(aUser.client, {
      organization_id: b.id,
      file_path: `documents/${b.id}/${Date.now()}-x.pdf`,
    }),
  );
  attack('A.user inserts a document uploaded "by" B\'s master admin', () =>
    insertDocument(aUser.client, { uploaded_by: b.master.userId }),
  );
  attack('A.user inserts a document with another status', () =>
    insertDocument(aUser.client, { status: 'Archived' }),
  );
  attack('A.user inserts a document with a negative size', () =>
    insertDocument(aUser.client, { size: -1 }),
  );
  attack('A.user inserts a document with an unknown category', () =>
    insertDocument(aUser.client, { category: 'Secrets' }),
  );
  attack(
    'A.user inserts a well-formed document (control)',
    () => insertDocument(aUser.client, {}),
    'allowed',
  );

  const ownDocument = async () => {
    const [row] = await sql<{ id: string }>(
      `insert into public.documents (organization_id, name, category, file_path)
       values ($1, 'mine.pdf', 'HR', $2) returning id`,
      [a.id, `documents/${a.id}/${Date.now()}-${tag()}.pdf`],
    );
    const document = row && (await documentRow(row.id));
    if (!document) throw new Error('document: no row inserted');
    return document;
  };
  for (const [column, value] of [
    ['organization_id', () => b.id],
    ['file_path', () => `documents/${b.id}/${Date.now()}-moved.pdf`],
    ['uploaded_by', () => b.master.userId],
    ['created_at', () => '2000-01-01T00:00:00+00:00'],
  ] as const) {
    attack(`A.user moves a document of A by updating ${column}`, async () => {
      const document = await ownDocument();
      const wanted = value();
      const { error } = await aUser.client
        .from('documents')
        .update({ [column]: wanted })
        .eq('id', document.id);
      const after = await documentRow(document.id as string);
      if (!after) return 'error: the document is gone';
      return judgeWrite(error, after[column] !== document[column]);
    });
  }

  // ---- secrets and tokens --------------------------------------------------------------------
  const secret = `top-secret-${tag()}`;
  const withConfig = async () => {
    unwrap(
      await aMaster.client.rpc('save_oauth_config', {
        provider_id: 'attack-provider',
        client_id: 'attack-client',
        client_secret: secret,
        authorize_url: null,
        token_url: null,
      }),
      'save_oauth_config',
    );
  };
  for (const actor of [aMaster, aAdmin, aUser]) {
    attack(`${actor.label} selects client_secret from oauth_configs`, async () => {
      await withConfig();
      return leaks(await actor.client.from('oauth_configs').select('client_secret'), secret);
    });
    attack(`${actor.label} selects * from oauth_configs`, async () => {
      await withConfig();
      return leaks(await actor.client.from('oauth_configs').select('*'), secret);
    });
    attack(`${actor.label} filters oauth_configs by client_secret`, async () => {
      await withConfig();
      return leaks(
        await actor.client.from('oauth_configs').select('id').eq('client_secret', secret),
      );
    });
  }
  attack(
    'A.master_admin reads the provider settings view without the secret (control)',
    async () => {
      await withConfig();
      const result = await aMaster.client.from('oauth_provider_settings').select('*');
      const body = JSON.stringify(result.data);
      const rows = (result.data ?? []) as Record<string, unknown>[];
      if (body.includes(secret) || rows.some((row) => 'client_secret' in row)) {
        return 'error: secret in the view';
      }
      return allowedIf(!result.error && body.includes('attack-provider'));
    },
    'allowed',
  );

  attack('A.user selects token columns from oauth_connections', async () => {
    const result = await aUser.client
      .from('oauth_connections')
      .select('access_token, refresh_token');
    return leaks(result);
  });
  attack('A.master_admin reads every connection token', async () =>
    leaks(await aMaster.client.from('oauth_connection_tokens').select('*')),
  );
  attack('A.master_admin reads every OAuth state', async () =>
    leaks(await aMaster.client.from('oauth_states').select('*')),
  );

  const withInvitation = () => invite(aMaster.person!, uniqueEmail('attack-invitee'));
  attack('A.admin selects token_hash from user_invitations', async () => {
    await withInvitation();
    return leaks(await aAdmin.client.from('user_invitations').select('token_hash'));
  });
  attack('A.admin selects token from user_invitations', async () => {
    await withInvitation();
    return leaks(await aAdmin.client.from('user_invitations').select('token'));
  });
  attack('A.admin finds the token in the invitation listing', async () => {
    const { token } = await withInvitation();
    const result = await aAdmin.client.from('user_invitations').select('*');
    if (result.error) return `error: ${result.error.message}`;
    return allowedIf(JSON.stringify(result.data).includes(token));
  });
  for (const actor of [aAdmin, actorOf(world, 'anonymous')]) {
    attack(`${actor.label} reads private.invitation_tokens through the API`, async () => {
      await withInvitation();
      return leaks(await actor.client.schema('private').from('invitation_tokens').select('*'));
    });
  }
  // The auth service asks this when sign-up is closed; no API role may ask it itself.
  // ---- background jobs (server/jobs/): nothing of the queue is reachable through the API ------
  for (const actor of [aMaster, actorOf(world, 'anonymous')]) {
    attack(`${actor.label} reads private.jobs through the API`, async () =>
      leaks(await actor.client.schema('private').from('jobs').select('*')),
    );
    attack(`${actor.label} adds a job with private.enqueue_job`, async () => {
      const kind = `attack.${tag()}`;
      const { error } = await actor.client
        .schema('private')
        .rpc('enqueue_job', { job_kind: kind, job_payload: {} });
      const { rows } = await server.db
        .serverWork()
        .query('select 1 from private.jobs where kind = $1', [kind]);
      return judgeWrite(error, rows.length > 0);
    });
  }
  // ---- what every member may do in each category (…20261208000000): only the definer helpers
  // read it; through the API it would show other organisations' categories and members ---------
  for (const actor of [aMaster, actorOf(world, 'anonymous')]) {
    attack(`${actor.label} reads private.member_category_access_rows through the API`, async () =>
      leaks(await actor.client.schema('private').from('member_category_access_rows').select('*')),
    );
  }
  // ---- the search budget (…2026112906000400): only search_documents reads it ----------------
  const readBudget = async () =>
    (
      await server.db
        .serverWork()
        .query<{ bytes: string }>('select read_budget::text as bytes from private.search_settings')
    ).rows[0]!.bytes;
  for (const actor of [aMaster, actorOf(world, 'anonymous')]) {
    attack(`${actor.label} reads private.search_settings through the API`, async () =>
      leaks(await actor.client.schema('private').from('search_settings').select('*')),
    );
    attack(`${actor.label} raises the search budget through the API`, async () => {
      const before = await readBudget();
      const { error } = await actor.client
        .schema('private')
        .from('search_settings')
        .update({ read_budget: 2 ** 40 })
        .eq('id', true);
      return judgeWrite(error, (await readBudget()) !== before);
    });
  }
  // ---- e-mail allowances (…20261128000501): only the trigger on jobs takes from them ---------
  const allowanceOf = async (organizationId: string) =>
    (
      await server.db
        .serverWork()
        .query<{ tokens: number }>(
          'select tokens from private.mail_allowances where organization_id = $1',
          [organizationId],
        )
    ).rows[0]?.tokens ?? null;
  for (const actor of [aMaster, actorOf(world, 'anonymous')]) {
    attack(`${actor.label} reads private.mail_allowances through the API`, async () => {
      await server.db.serverWork().query('select private.take_mail_allowance($1, 1)', [b.id]);
      return leaks(await actor.client.schema('private').from('mail_allowances').select('*'));
    });
    attack(
      `${actor.label} spends B's e-mail allowance with private.take_mail_allowance`,
      async () => {
        const before = await allowanceOf(b.id);
        const { error } = await actor.client
          .schema('private')
          .rpc('take_mail_allowance', { organization_id: b.id, recipients: 1 });
        return judgeWrite(error, (await allowanceOf(b.id)) !== before);
      },
    );
  }
  // ---- request allowances (server/db/platform/013): only the server counts in them ----------
  const requestAllowance = async (key: string) =>
    (
      await server.db
        .serverWork()
        .query<{ tokens: number }>(
          `select tokens from _platform.request_allowances where limiter = 'attack' and key = $1`,
          [key],
        )
    ).rows[0]?.tokens ?? null;
  for (const actor of world.actors) {
    attack(`${actor.label} reads _platform.request_allowances through the API`, async () => {
      await server.db
        .serverWork()
        .query(`select _platform.take_request_allowance('attack', 'seen', 5, 60000, now())`);
      return leaks(await actor.client.schema('_platform').from('request_allowances').select('*'));
    });
    attack(`${actor.label} spends another client's request allowance`, async () => {
      const key = `victim-${tag()}`;
      await server.db
        .serverWork()
        .query(`select _platform.take_request_allowance('attack', $1, 5, 60000, now())`, [key]);
      const before = await requestAllowance(key);
      const { error } = await actor.client.schema('_platform').rpc('take_request_allowance', {
        limiter: 'attack',
        key,
        per_window: 5,
        window_ms: 60000,
        now: new Date().toISOString(),
      });
      return judgeWrite(error, (await requestAllowance(key)) !== before);
    });
    attack(`${actor.label} reads _platform.guess_records through the API`, async () => {
      await server.db
        .serverWork()
        .query(
          `select _platform.begin_guess('attack', 'someone', 'there', 5, 5, 5, 1, 1, 60000, now())`,
        );
      return leaks(await actor.client.schema('_platform').from('guess_records').select('*'));
    });
    attack(`${actor.label} clears another client's failed guesses with end_guess`, async () => {
      const account = `victim-${tag()}`;
      const { rows } = await server.db
        .serverWork()
        .query<{ started: string }>(
          `select started::text from _platform.begin_guess('attack', $1, 'there', 5, 5, 5, 1, 1, 60000, now())`,
          [account],
        );
      const failures = async () =>
        (
          await server.db.serverWork().query<{ n: number }>(
            `select cardinality(failures) as n from _platform.guess_records
              where limiter = 'attack' and key = 'account:' || $1`,
            [account],
          )
        ).rows[0]?.n;
      const before = await failures();
      const { error } = await actor.client.schema('_platform').rpc('end_guess', {
        limiter: 'attack',
        account,
        address: 'there',
        started: rows[0]!.started,
        succeeded: true,
        now: new Date().toISOString(),
      });
      return judgeWrite(error, (await failures()) !== before);
    });
  }
  for (const actor of [aUser, actorOf(world, 'anonymous')]) {
    attack(`${actor.label} calls private.invitation_allows_sign_up`, async () => {
      const email = uniqueEmail('attack-invitee');
      const { token } = await invite(aMaster.person!, email);
      const result = await actor.client
        .schema('private')
        .rpc('invitation_allows_sign_up', { token, email });
      return allowedIf(!result.error);
    });
  }
  attack('anonymous finds a token or a hash in an invitation lookup', async () => {
    const { token } = await withInvitation();
    const result = await server.anon().rpc('get_invitation', { token });
    const body = JSON.stringify(result.data);
    if (result.error) return `error: ${result.error.message}`;
    return allowedIf(body.includes(token) || /[0-9a-f]{64}/.test(body));
  });

  // ---- client addresses (issue 26): X-Forwarded-For is input, trusted from no peer here ------
  /** The address a sign-up sent with `forwardedFor` recorded, or why it failed. */
  const signUpRecording = async (forwardedFor: string): Promise<string> => {
    const answer = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: {
        apikey: server.keys.anonKey,
        'content-type': 'application/json',
        'x-forwarded-for': forwardedFor,
      },
      body: JSON.stringify({ email: uniqueEmail('forwarded'), password: PASSWORD }),
    });
    const body = (await answer.json()) as { access_token?: string };
    if (!answer.ok || !body.access_token) return `status ${answer.status}`;
    const claims = JSON.parse(
      Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString('utf8'),
    ) as { session_id: string };
    const { rows } = await server.db
      .serverWork()
      .query<{ ip: string | null }>(
        'select host(ip) as ip from auth.sessions where id = $1::uuid',
        [claims.session_id],
      );
    return rows[0]?.ip ?? 'none';
  };
  attack(
    'anonymous signs up with a forged X-Forwarded-For and is counted at that address',
    async () => allowedIf((await signUpRecording('203.0.113.66')) === '203.0.113.66'),
  );
  attack('anonymous breaks a sign-up with a malformed X-Forwarded-For', async () => {
    const recorded = await signUpRecording(`unknown, ${'x,'.repeat(2000)} ::ffff:zz, 999.1.1.1`);
    // The header is ignored: the sign-up counts the TCP peer, as any other.
    return allowedIf(recorded !== '127.0.0.1');
  });

  // ---- storage paths -------------------------------------------------------------------------
  const documents = (client: SupabaseClient) => client.storage.from('documents');
  // An object is its row in storage.objects (which a download looks up before its bytes): read
  // on the server's own connection rather than downloaded as the service role.
  const objectExists = async (bucket: string, name: string) =>
    (await sql('select 1 from storage.objects where bucket_id = $1 and name = $2', [bucket, name]))
      .length > 0;
  const upload = async (
    client: SupabaseClient,
    bucket: string,
    name: string,
    body: string | Uint8Array,
    contentType: string,
  ) => {
    const { error } = await client.storage.from(bucket).upload(name, body, { contentType });
    return { error, exists: await objectExists(bucket, name) };
  };
  for (const [what, name] of [
    ['climbing out of the own folder with ..', () => `documents/${a.id}/../${b.id}/${tag()}.txt`],
    ['outside any organisation folder', () => `documents/${tag()}.txt`],
    ['in the bucket root without the documents/ prefix', () => `${a.id}/${tag()}.txt`],
    ["in B's folder", () => `documents/${b.id}/${tag()}.txt`],
  ] as const) {
    attack(`A.user uploads a document file ${what}`, async () => {
      const target = name();
      const { error, exists } = await upload(aUser.client, 'documents', target, 'x', 'text/plain');
      // A server may also normalise `a/../b` into `b`: that must not land in B's folder either.
      const normalised = target.includes('/../') ? target.replace(/[^/]+\/\.\.\//, '') : target;
      return judgeWrite(error, exists || (await objectExists('documents', normalised)));
    });
  }
  attack('A.user lists the documents bucket root and sees no other organisation', async () => {
    await service()
      .storage.from('documents')
      .upload(`documents/${b.id}/${tag()}.txt`, 'b', { upsert: true });
    const { data } = await documents(aUser.client).list('documents');
    return allowedIf(JSON.stringify(data ?? []).includes(b.id));
  });
  attack('A.user lists the branding bucket root and sees no other organisation', async () => {
    await service()
      .storage.from('branding')
      .upload(`${b.id}/logo.svg`, '<svg xmlns="http://www.w3.org/2000/svg"/>', {
        upsert: true,
        contentType: 'image/svg+xml',
      });
    const { data } = await aUser.client.storage.from('branding').list('');
    return allowedIf(JSON.stringify(data ?? []).includes(b.id));
  });
  attack('A.admin uploads a second file next to the logo', async () => {
    const { error, exists } = await upload(
      aAdmin.client,
      'branding',
      `${a.id}/other-${tag()}.svg`,
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'image/svg+xml',
    );
    return judgeWrite(error, exists);
  });
  // Since issue 24 the bucket takes raster images (the upload a logo is made from, at most
  // 5 MiB); the PNG logo itself is written by the server alone.
  attack('A.admin writes the PNG logo itself, which only the server makes', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const { error, exists } = await upload(
      aAdmin.client,
      'branding',
      `${a.id}/logo.png`,
      png,
      'image/png',
    );
    return judgeWrite(error, exists);
  });
  attack("A.admin uploads a logo over the bucket's 5 MiB", async () => {
    await service()
      .storage.from('branding')
      .remove([`${a.id}/logo.svg`]);
    const head = '<svg xmlns="http://www.w3.org/2000/svg"><!--';
    const tail = '--></svg>';
    const body = head + 'x'.repeat(5 * 1024 * 1024 + 1 - head.length - tail.length) + tail;
    const { error, exists } = await upload(
      aAdmin.client,
      'branding',
      `${a.id}/logo.svg`,
      body,
      'image/svg+xml',
    );
    return judgeWrite(error, exists);
  });
  return cases;
}
