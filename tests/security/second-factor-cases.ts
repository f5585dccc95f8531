/**
 * The second-factor rule (issue 22, R6) × two organisations × every role, each person with a
 * verified TOTP factor and two sessions: one signed in with the password alone (`aal1`) and
 * one that proved a code (`aal2`); plus the anonymous caller. The organisations do not require
 * two-factor sign-in: what holds a person to their factor is that they enrolled one. An `aal1`
 * session reaches nothing (the functions answer why); an `aal2` session reaches what the role
 * allows, as everywhere else. The people and organisations are this suite's own, made the way
 * the app makes them, so that the other suites' actors keep their sessions.
 */
import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import type { TestServer } from '../support/server.ts';
import type { OrgKey, Standing } from './actors.ts';
import { admits, judgeWrite, type Case, type Outcome, type Rule } from './cases.ts';
import {
  PASSWORD,
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from './world.ts';

const CODE_FIRST = 'Sign in with your two-factor code first';

type Kind = 'user' | 'admin' | 'master_admin' | 'deactivated';
type Level = 'aal1' | 'aal2';

interface Holder {
  kind: Kind;
  org: OrgKey;
  person: Person;
  sessions: Record<Level, SupabaseClient>;
}

interface FactorOrg {
  key: OrgKey;
  organisation: Organisation;
  /** A document with its stored file. */
  documentId: string;
  filePath: string;
  content: string;
}

interface FactorWorld {
  orgs: Record<OrgKey, FactorOrg>;
  holders: Holder[];
}

/** Enrols and verifies a TOTP factor (the client's session becomes `aal2`); a password-only
 * sign-in of the same person gives the `aal1` session. */
async function withFactor(
  server: TestServer,
  person: Person,
): Promise<Record<Level, SupabaseClient>> {
  const enrolled = unwrap(await person.client.auth.mfa.enroll({ factorType: 'totp' }), 'enrol');
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.totp.secret) });
  unwrap(
    await person.client.auth.mfa.challengeAndVerify({
      factorId: enrolled.id,
      code: totp.generate(),
    }),
    'verify',
  );
  const weak = server.anon();
  const { error } = await weak.auth.signInWithPassword({ email: person.email, password: PASSWORD });
  if (error) throw new Error(`password sign-in: ${error.message}`);
  return { aal1: weak, aal2: person.client };
}

async function factorOrg(server: TestServer, key: OrgKey): Promise<[FactorOrg, Holder[]]> {
  const organisation = await createOrganisation(server, `Second Factor ${key}`);
  const content = `payroll of ${key} ${randomBytes(4).toString('hex')}`;
  const filePath = `documents/${organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.txt`;
  unwrap(
    await server
      .service()
      .storage.from('documents')
      .upload(filePath, new TextEncoder().encode(content), { contentType: 'text/plain' }),
    'upload',
  );
  const { rows } = await server.db.serverWork().query<{ id: string }>(
    `insert into public.documents (organization_id, name, category, file_path, size)
     values ($1, 'Payroll.txt', 'HR', $2, $3) returning id`,
    [organisation.id, filePath, content.length],
  );
  const people: [Kind, Person][] = [
    ['master_admin', organisation.master],
    ['admin', await addMember(server, organisation, 'admin', `${key}-2fa-admin`)],
    ['user', await addMember(server, organisation, 'user', `${key}-2fa-user`)],
    ['deactivated', await addMember(server, organisation, 'user', `${key}-2fa-deactivated`)],
  ];
  const holders: Holder[] = [];
  for (const [kind, person] of people) {
    holders.push({
      kind,
      org: key,
      person,
      sessions: await withFactor(server, person),
    });
  }
  const deactivated = people.find(([kind]) => kind === 'deactivated')![1];
  unwrap(
    await organisation.master.client.rpc('deactivate_user', { user_id: deactivated.userId }),
    'deactivate_user',
  );
  return [{ key, organisation, documentId: rows[0]!.id, filePath, content }, holders];
}

async function buildFactorWorld(server: TestServer): Promise<FactorWorld> {
  // The suite before may end with an upload the server refused unread, which closes its
  // connection; the pool of this process may still hand that socket out once ("other side
  // closed"). A first request that may fail takes it, so that the sign-ups below do not.
  await fetch(`${server.url}/auth/v1/health`).catch(() => undefined);
  const [a, holdersA] = await factorOrg(server, 'A');
  const [b, holdersB] = await factorOrg(server, 'B');
  return { orgs: { A: a, B: b }, holders: [...holdersA, ...holdersB] };
}

/** Who a caller is: a person with a factor (their role and organisation), or nobody. */
type Who = { kind: Kind; org: OrgKey } | null;

/** Who the caller is to the organisation a case reaches into. */
function standingOf(who: Who, target: OrgKey): Standing {
  if (!who) return 'anonymous';
  if (who.org !== target) return 'outsider';
  return who.kind;
}

interface Operation {
  group: string;
  describe: string;
  rule: Rule;
  /** Reaches into the target organisation; otherwise only into the caller's own. */
  targeted: boolean;
  /** An rpc function: an `aal1` session is refused with the rule's own message. */
  rpc: boolean;
  run(
    server: TestServer,
    client: SupabaseClient,
    target: FactorOrg,
    holder: Holder | null,
  ): Promise<Outcome>;
}

/**
 * An rpc's answer: the second factor's refusal by its text, any other failure as `denied`. A
 * deactivated person is refused by either rule, whichever the function checks first: `denied`.
 */
function rpcOutcome(
  holder: Holder | null,
  error: { message: string } | null,
  worked: boolean,
): Outcome {
  if (error?.message === CODE_FIRST && holder?.kind !== 'deactivated') {
    return `error: ${CODE_FIRST}`;
  }
  if (error) return worked ? `error: changed despite "${error.message}"` : 'denied';
  return worked ? 'allowed' : 'denied';
}

const OPERATIONS: Operation[] = [
  {
    group: 'table documents',
    describe: 'reads the documents of',
    rule: 'member',
    targeted: true,
    rpc: false,
    async run(_server, client, target) {
      const { data } = await client.from('documents').select('id').eq('id', target.documentId);
      return (data ?? []).length === 1 ? 'allowed' : 'denied';
    },
  },
  {
    group: 'table documents',
    describe: 'edits a document of',
    rule: 'member',
    targeted: true,
    rpc: false,
    async run(server, client, target) {
      const description = `edited ${randomBytes(4).toString('hex')}`;
      const { error } = await client
        .from('documents')
        .update({ description })
        .eq('id', target.documentId);
      const { rows } = await server.db
        .serverWork()
        .query('select 1 from public.documents where id = $1 and description = $2', [
          target.documentId,
          description,
        ]);
      return judgeWrite(error, rows.length === 1);
    },
  },
  {
    group: 'table organizations',
    describe: 'reads the organisation',
    rule: 'member',
    targeted: true,
    rpc: false,
    async run(_server, client, target) {
      const { data } = await client
        .from('organizations')
        .select('id')
        .eq('id', target.organisation.id);
      return (data ?? []).length === 1 ? 'allowed' : 'denied';
    },
  },
  {
    group: 'table user_invitations',
    describe: 'reads the invitations of',
    rule: 'admin',
    targeted: true,
    rpc: false,
    async run(server, client, target) {
      const { rows } = await server.db.serverWork().query<{ id: string }>(
        `insert into public.user_invitations (organization_id, email, role, invited_by, expires_at)
         values ($1, $2, 'user', $3, now() + interval '7 days') returning id`,
        [
          target.organisation.id,
          `read-${randomBytes(4).toString('hex')}@example.test`,
          target.organisation.master.userId,
        ],
      );
      const { data } = await client.from('user_invitations').select('id').eq('id', rows[0]!.id);
      return (data ?? []).length === 1 ? 'allowed' : 'denied';
    },
  },
  {
    group: 'storage documents',
    describe: 'downloads a document file of',
    rule: 'member',
    targeted: true,
    rpc: false,
    async run(_server, client, target) {
      const { data } = await client.storage.from('documents').download(target.filePath);
      return data && (await data.text()) === target.content ? 'allowed' : 'denied';
    },
  },
  {
    group: 'storage documents',
    describe: 'signs and opens a link to a document file of',
    rule: 'member',
    targeted: true,
    rpc: false,
    async run(_server, client, target) {
      const { data } = await client.storage.from('documents').createSignedUrl(target.filePath, 60);
      if (!data) return 'denied';
      const opened = await fetch(data.signedUrl);
      return opened.ok && (await opened.text()) === target.content ? 'allowed' : 'denied';
    },
  },
  {
    group: 'storage documents',
    describe: 'uploads a file to the folder of',
    rule: 'member',
    targeted: true,
    rpc: false,
    async run(server, client, target) {
      const name = `documents/${target.organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.txt`;
      const { error } = await client.storage
        .from('documents')
        .upload(name, new TextEncoder().encode('new file'), { contentType: 'text/plain' });
      const { rows } = await server.db
        .serverWork()
        .query(`select 1 from storage.objects where bucket_id = 'documents' and name = $1`, [name]);
      return judgeWrite(error, rows.length === 1);
    },
  },
  {
    group: 'table user_profiles',
    describe: 'renames themselves',
    rule: 'member',
    targeted: false,
    rpc: false,
    async run(server, client, _target, holder) {
      const name = `Renamed ${randomBytes(4).toString('hex')}`;
      const { error } = await client
        .from('user_profiles')
        .update({ full_name: name })
        .eq('id', holder?.person.userId ?? '00000000-0000-0000-0000-000000000000');
      const { rows } = await server.db
        .serverWork()
        .query('select 1 from public.user_profiles where full_name = $1', [name]);
      return judgeWrite(error, rows.length === 1);
    },
  },
  {
    group: 'rpc document_stats',
    describe: 'counts the documents of',
    rule: 'member',
    targeted: false,
    rpc: true,
    async run(_server, client, _target, holder) {
      const { data, error } = await client.rpc('document_stats');
      return rpcOutcome(holder, error, data !== null && error === null);
    },
  },
  {
    group: 'rpc invite_user',
    describe: 'invites a new admin to',
    rule: 'admin',
    targeted: false,
    rpc: true,
    async run(server, client, target, holder) {
      const email = `invited-${randomBytes(5).toString('hex')}@example.test`;
      const { error } = await client
        .rpc('invite_user', { email, role: 'admin', full_name: null })
        .select();
      const { rows } = await server.db
        .serverWork()
        .query('select 1 from public.user_invitations where email = $1 and organization_id = $2', [
          email,
          target.organisation.id,
        ]);
      return rpcOutcome(holder, error, rows.length === 1);
    },
  },
];

function expected(who: Who, level: Level, target: OrgKey, op: Operation): Outcome {
  if (who && level === 'aal1') {
    return op.rpc && who.kind !== 'deactivated' ? `error: ${CODE_FIRST}` : 'denied';
  }
  return admits(op.rule, standingOf(who, target)) ? 'allowed' : 'denied';
}

export function secondFactorCases(server: TestServer): Case[] {
  let world: Promise<FactorWorld> | undefined;
  const ready = () => (world ??= buildFactorWorld(server));
  const cases: Case[] = [];
  const callers: { label: string; who: Who; level: Level }[] = [
    { label: 'anonymous', who: null, level: 'aal1' },
  ];
  for (const org of ['A', 'B'] as const) {
    for (const kind of ['master_admin', 'admin', 'user', 'deactivated'] as const) {
      for (const level of ['aal1', 'aal2'] as const) {
        callers.push({
          label: `${org}.${kind} with a factor (${level})`,
          who: { kind, org },
          level,
        });
      }
    }
  }
  for (const caller of callers) {
    for (const op of OPERATIONS) {
      const targets: OrgKey[] = op.targeted ? ['A', 'B'] : [caller.who?.org ?? 'A'];
      for (const target of targets) {
        cases.push({
          group: op.group,
          name: `${caller.label} ${op.describe} ${op.targeted ? target : 'their organisation'}`,
          expected: expected(caller.who, caller.level, target, op),
          run: async () => {
            const { orgs, holders } = await ready();
            const holder = caller.who
              ? holders.find((h) => h.kind === caller.who!.kind && h.org === caller.who!.org)!
              : null;
            const client = holder ? holder.sessions[caller.level] : server.anon();
            return op.run(server, client, orgs[target], holder);
          },
        });
      }
    }
  }
  return cases;
}
