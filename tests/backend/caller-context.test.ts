import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { postgresAdminUrl } from '../support/template.ts';

// The policies' helpers keep the caller's context for the statement's snapshot
// (private.caller_context, supabase/schemas/01_organizations_and_profiles.sql): what the
// caller may do must still follow every change at once, whether another session committed it
// or the caller's own transaction wrote it, and a rolled-back write must leave no trace.

/** Thrown at the end of a test's transaction so that nothing it wrote stays. */
class RolledBack extends Error {}

interface CallerTransaction {
  /** A statement as the caller: role authenticated, the caller's claims. */
  caller(sql: string, params?: readonly unknown[]): Promise<{ rows: unknown[] }>;
  /** A statement as the database's owner (no row-level security), in the same transaction. */
  owner(sql: string, params?: readonly unknown[]): Promise<{ rows: unknown[] }>;
}

function claims(who: Person): string {
  return JSON.stringify({ sub: who.userId, role: 'authenticated', aal: 'aal1' });
}

function callerTransaction(tx: Queryable): CallerTransaction {
  return {
    caller: async (sql, params) => {
      await tx.query('set local role authenticated');
      return tx.query(sql, params);
    },
    owner: async (sql, params) => {
      await tx.query('reset role');
      return tx.query(sql, params);
    },
  };
}

describe("the caller's context kept for a snapshot", () => {
  let server: TestServer;
  let church: Organisation;
  let member: Person;
  let admin: Person;
  let legal: { id: string };
  let rota: { id: string };
  let staffGroup: string;
  /** A restricted category the member may not view, named with what array literals quote. */
  const board = 'Board "minutes", {drafts} \\ notes';

  /**
   * Runs `fn` in one transaction of `who`, rolled back at its end. Repeatable read: every
   * statement has the transaction's snapshot, so a context kept for it would be kept across
   * statements whatever other sessions of the shared PostgreSQL commit meanwhile, and only the
   * transaction's own writes can make it change.
   */
  async function inTransaction(who: Person, fn: (sql: CallerTransaction) => Promise<void>) {
    await server.db
      .serverWork()
      .transaction(async (tx) => {
        await tx.query('set transaction isolation level repeatable read');
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims(who)]);
        await fn(callerTransaction(tx));
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  }

  const seesLegal = async (sql: CallerTransaction) =>
    (await sql.caller('select id from public.documents where id = $1', [legal.id])).rows.length;
  const editsRota = async (sql: CallerTransaction) =>
    (
      await sql.caller(
        `update public.documents set description = 'Checked' where id = $1 returning id`,
        [rota.id],
      )
    ).rows.length;
  const refusal = async (sql: CallerTransaction) =>
    sql.caller('select id from public.documents').then(
      () => null,
      (error: unknown) => {
        const { message, code, hint } = error as { message: string; code: string; hint: string };
        return { message, code, hint };
      },
    );

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Context Church');
    member = await addMember(server, church, 'user', 'member');
    admin = await addMember(server, church, 'admin', 'admin');
    legal = await uploadDocument(member, church.id, {
      name: 'Lease.txt',
      bytes: 'The lease',
      contentType: 'text/plain;charset=UTF-8',
      category: 'Legal',
    });
    rota = await uploadDocument(member, church.id, {
      name: 'Rota.txt',
      bytes: 'Sunday rota',
      contentType: 'text/plain;charset=UTF-8',
      category: 'Operations',
    });
    staffGroup = unwrap(
      await church.master.client.rpc('create_member_group', { name: 'Staff' }),
      'create_member_group',
    ) as string;
    unwrap(
      await church.master.client.rpc('set_member_group_members', {
        group_id: staffGroup,
        user_ids: [member.userId],
      }),
      'set_member_group_members',
    );
    await server.db.serverWork().query(
      `insert into public.document_categories (organization_id, name, position, restricted)
         values ($1, $2, 99, true)`,
      [church.id, board],
    );
  });

  afterAll(() => server?.close());

  describe("follows the transaction's own writes in its next statement", () => {
    it('a role lowered to Viewer', async () => {
      await inTransaction(member, async (sql) => {
        expect(await editsRota(sql)).toBe(1);
        await sql.owner(`update public.user_profiles set role = 'viewer' where id = $1`, [
          member.userId,
        ]);
        expect(await editsRota(sql)).toBe(0);
        expect(await seesLegal(sql)).toBe(1);
      });
    });

    it('a deactivation', async () => {
      await inTransaction(member, async (sql) => {
        expect(await seesLegal(sql)).toBe(1);
        await sql.owner('update public.user_profiles set is_active = false where id = $1', [
          member.userId,
        ]);
        expect(await seesLegal(sql)).toBe(0);
      });
    });

    it('a category restricted, its rule removed, the member out of its group', async () => {
      await inTransaction(member, async (sql) => {
        expect(await seesLegal(sql)).toBe(1);
        await sql.owner(
          `update public.document_categories set restricted = true
            where organization_id = $1 and name = 'Legal'`,
          [church.id],
        );
        expect(await seesLegal(sql)).toBe(0);
        await sql.owner(
          `insert into public.category_access (organization_id, category_id, group_id, access)
           select c.organization_id, c.id, $2, 'view' from public.document_categories c
            where c.organization_id = $1 and c.name = 'Legal'`,
          [church.id, staffGroup],
        );
        expect(await seesLegal(sql)).toBe(1);
        await sql.owner('delete from public.member_group_members where user_id = $1', [
          member.userId,
        ]);
        expect(await seesLegal(sql)).toBe(0);
        await sql.owner(
          `insert into public.member_group_members (group_id, user_id, organization_id)
           values ($1, $2, $3)`,
          [staffGroup, member.userId, church.id],
        );
        expect(await seesLegal(sql)).toBe(1);
        await sql.owner('delete from public.category_access where group_id = $1', [staffGroup]);
        expect(await seesLegal(sql)).toBe(0);
      });
    });

    it('a second factor enrolled', async () => {
      await inTransaction(member, async (sql) => {
        expect(await refusal(sql)).toBeNull();
        await sql.owner(
          `insert into auth.mfa_factors (id, user_id, factor_type, status, created_at, updated_at,
                                         secret)
           values (gen_random_uuid(), $1, 'totp', 'verified', now(), now(), 'secret')`,
          [member.userId],
        );
        expect(await refusal(sql)).toEqual({
          message: 'Sign in with your two-factor code first',
          code: '42501',
          hint: 'You set up two-factor sign-in: enter the code of your authenticator app.',
        });
      });
    });

    it('two-factor sign-in required of admins', async () => {
      await inTransaction(admin, async (sql) => {
        expect(await refusal(sql)).toBeNull();
        await sql.owner(
          'update public.organizations set require_two_factor_for_admins = true where id = $1',
          [church.id],
        );
        expect(await refusal(sql)).toEqual({
          message: 'Two-factor sign-in is required for admins of this organization',
          code: '42501',
          hint: 'Set up two-factor sign-in in your profile, or sign in with your code.',
        });
      });
    });

    it('a write read by a cursor opened before it', async () => {
      // The cursor's rows are computed with its own, older snapshot, after the write: a context
      // computed there must not be kept for the statements after it.
      await inTransaction(member, async (sql) => {
        await sql.caller('declare before_the_write cursor for select id from public.documents');
        await sql.owner(`update public.user_profiles set role = 'viewer' where id = $1`, [
          member.userId,
        ]);
        expect((await sql.caller('fetch all from before_the_write')).rows).toHaveLength(2);
        expect(await editsRota(sql)).toBe(0);
      });
    });
  });

  // Each helper asks private.caller_context, the one place that decides whether the kept
  // context is the caller's: whichever is asked first in a snapshot computes and keeps it, and
  // the next statement (the same snapshot: repeatable read) answers every helper from it.
  describe('kept by whichever helper is asked first', () => {
    const helpers = {
      caller_organization_id: "select private.caller_organization_id('viewer')",
      caller_hidden_categories: 'select private.caller_hidden_categories()',
      caller_uneditable_categories: 'select private.caller_uneditable_categories()',
      second_factor_checked: 'select private.second_factor_checked()',
    };
    for (const [helper, first] of Object.entries(helpers)) {
      it(helper, async () => {
        await inTransaction(member, async (sql) => {
          // As the owner, who may use the private schema; the helpers answer for the claims.
          await sql.owner(first);
          expect(
            (
              await sql.owner(
                `select private.caller_organization_id('user') as organisation,
                        private.caller_organization_id('admin') as admin,
                        private.caller_hidden_categories() as hidden,
                        private.caller_uneditable_categories() as uneditable,
                        private.second_factor_checked() as checked`,
              )
            ).rows,
          ).toEqual([
            {
              organisation: church.id,
              admin: null,
              hidden: [board],
              uneditable: [board],
              checked: true,
            },
          ]);
        });
      });
    }
  });

  // The key holds the three claim settings apart: the same texts in other settings are another
  // caller (here none: auth.uid() reads `request.jwt.claim.sub` and `request.jwt.claims`, not
  // `request.jwt.claim`), and must not find the context kept for the first.
  it('keeps the claim settings of its key apart', async () => {
    await inTransaction(member, async (sql) => {
      const organisation = async (sub: string, claim: string, claimsText: string) => {
        await sql.owner(
          `select set_config('request.jwt.claim.sub', $1, true),
                  set_config('request.jwt.claim', $2, true),
                  set_config('request.jwt.claims', $3, true)`,
          [sub, claim, claimsText],
        );
        const { rows } = await sql.owner(`select private.caller_organization_id('viewer') as id`);
        return (rows[0] as { id: string | null }).id;
      };
      const theMember = claims(member);
      expect(await organisation('', '', theMember)).toBe(church.id);
      expect(await organisation('', theMember, '')).toBeNull();
      expect(await organisation(member.userId, '', '')).toBe(church.id);
      expect(await organisation('', '', '')).toBeNull();
      expect(await organisation('', '', theMember)).toBe(church.id);
    });
  });

  // The rank of each role, and the minimum roles it meets, as private.role_rank ranks them
  // (the context names the known roles' ranks as planned constants).
  it('ranks every role as role_rank does', async () => {
    const ranks = ['viewer', 'user', 'admin', 'master_admin'];
    for (const role of ranks) {
      await inTransaction(member, async (sql) => {
        await sql.owner('update public.user_profiles set role = $2 where id = $1', [
          member.userId,
          role,
        ]);
        const [row] = (
          await sql.owner(
            `select (c)[2] as rank, (c)[3] as roles, private.role_rank($1) as expected,
                    private.caller_organization_id('viewer') is not null as viewer,
                    private.caller_organization_id('user') is not null as "user",
                    private.caller_organization_id('admin') is not null as admin,
                    private.caller_organization_id('master_admin') is not null as master_admin
               from private.caller_context() c`,
            [role],
          )
        ).rows as Record<string, unknown>[];
        const meets = ranks.slice(0, ranks.indexOf(role) + 1);
        expect(row).toEqual({
          rank: String(row!.expected),
          roles: `{${meets.join(',')}}`,
          expected: ranks.indexOf(role) + 1,
          viewer: true,
          user: meets.includes('user'),
          admin: meets.includes('admin'),
          master_admin: meets.includes('master_admin'),
        });
      });
    }
  });

  describe('follows a write rolled back in a subtransaction', () => {
    it('to a savepoint', async () => {
      await inTransaction(member, async (sql) => {
        expect(await editsRota(sql)).toBe(1);
        await sql.owner('savepoint lowered');
        await sql.owner(`update public.user_profiles set role = 'viewer' where id = $1`, [
          member.userId,
        ]);
        expect(await editsRota(sql)).toBe(0);
        await sql.owner('rollback to savepoint lowered');
        expect(await editsRota(sql)).toBe(1);
      });
    });

    it('in an exception block of PL/pgSQL', async () => {
      await inTransaction(member, async (sql) => {
        expect(await seesLegal(sql)).toBe(1);
        // The block reads as the member after the write (the context computed with it), then
        // fails: its write and what it kept are undone together.
        await sql.owner(`
          do $$
          begin
            update public.user_profiles set is_active = false
             where id = (current_setting('request.jwt.claims')::jsonb ->> 'sub')::uuid;
            set local role authenticated;
            if exists (select 1 from public.documents d where d.category = 'Legal') then
              raise exception 'still a member';
            end if;
            raise division_by_zero;
          exception
            when division_by_zero then
              null;
          end
          $$`);
        expect(await seesLegal(sql)).toBe(1);
        expect(await editsRota(sql)).toBe(1);
      });
    });
  });

  it('cannot be set through the API', async () => {
    for (const name of ['set_config', 'pg_catalog.set_config']) {
      const { error, status } = await member.client.rpc(name, {
        setting_name: 'steward.caller_context',
        new_value: '',
        is_local: true,
      });
      expect(status).toBe(404);
      expect(error?.code).toBe('PGRST202');
    }
    const { error, status } = await member.client.schema('pg_catalog').rpc('set_config', {
      setting_name: 'steward.caller_context',
      new_value: '',
      is_local: true,
    });
    expect(status).toBe(406);
    expect(error?.code).toBe('PGRST106');
  });
});

// Another session's commit between two statements of one READ COMMITTED transaction: the next
// statement has a new snapshot, and the caller's context follows it at once. PostgreSQL only
// (PGlite has one session).
if (postgresAdminUrl()) {
  describe("the caller's context kept for a snapshot, on PostgreSQL", () => {
    let server: TestServer;
    let church: Organisation;
    let session: pg.Client;
    let legal: { id: string };

    beforeAll(async () => {
      server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
      church = await createOrganisation(server, 'Committed Church');
      const owner = await addMember(server, church, 'user', 'owner');
      legal = await uploadDocument(owner, church.id, {
        name: 'Lease.txt',
        bytes: 'The lease',
        contentType: 'text/plain;charset=UTF-8',
        category: 'Legal',
      });
      session = new pg.Client({ connectionString: server.databaseUrl! });
      await session.connect();
    });

    afterAll(async () => {
      await session?.end();
      await server?.close();
    });

    /** Opens a READ COMMITTED transaction of `who` on the test's own session. */
    async function begin(who: Person) {
      await session.query('begin isolation level read committed');
      await session.query('set local role authenticated');
      await session.query(`select set_config('request.jwt.claims', $1, true)`, [claims(who)]);
    }
    const seesLegal = async () =>
      (await session.query('select id from public.documents where id = $1', [legal.id])).rows
        .length;

    it('a category restricted by the master admin', async () => {
      const member = await addMember(server, church, 'user', 'reader');
      await begin(member);
      try {
        expect(await seesLegal()).toBe(1);
        const legalCategory = (
          unwrap(
            await church.master.client.rpc('my_document_categories'),
            'my_document_categories',
          ) as { id: string; name: string }[]
        ).find((c) => c.name === 'Legal')!;
        unwrap(
          await church.master.client.rpc('set_category_access', {
            category_id: legalCategory.id,
            restricted: true,
            rules: [],
          }),
          'set_category_access',
        );
        expect(await seesLegal()).toBe(0);
        unwrap(
          await church.master.client.rpc('set_category_access', {
            category_id: legalCategory.id,
            restricted: false,
            rules: [],
          }),
          'set_category_access',
        );
        expect(await seesLegal()).toBe(1);
      } finally {
        await session.query('rollback');
      }
    });

    it('a member deactivated by an admin', async () => {
      const member = await addMember(server, church, 'user', 'leaver');
      await begin(member);
      try {
        expect(await seesLegal()).toBe(1);
        unwrap(
          await church.master.client.rpc('deactivate_user', { user_id: member.userId }),
          'deactivate_user',
        );
        expect(await seesLegal()).toBe(0);
      } finally {
        await session.query('rollback');
      }
    });

    it('a member made a Viewer', async () => {
      const member = await addMember(server, church, 'user', 'demoted');
      await begin(member);
      try {
        const edit = () =>
          session.query(`update public.documents set description = 'Seen' where id = $1`, [
            legal.id,
          ]);
        // A read (not an edit, whose locks would hold the role's change back) computes the
        // whole context, the roles the member meets included.
        expect(await seesLegal()).toBe(1);
        unwrap(
          await church.master.client.rpc('update_user_role', {
            user_id: member.userId,
            new_role: 'viewer',
          }),
          'update_user_role',
        );
        expect((await edit()).rowCount).toBe(0);
        expect(await seesLegal()).toBe(1);
      } finally {
        await session.query('rollback');
      }
    });

    it('two-factor sign-in required of admins', async () => {
      const member = await addMember(server, church, 'admin', 'admin');
      await begin(member);
      const other = new pg.Client({ connectionString: server.databaseUrl! });
      await other.connect();
      try {
        expect(await seesLegal()).toBe(1);
        // Committed by another session as set_two_factor_requirement would (it needs a session
        // that proved a second factor).
        await other.query(
          'update public.organizations set require_two_factor_for_admins = true where id = $1',
          [church.id],
        );
        await expect(seesLegal()).rejects.toMatchObject({
          message: 'Two-factor sign-in is required for admins of this organization',
          code: '42501',
        });
      } finally {
        await session.query('rollback');
        await other.query(
          'update public.organizations set require_two_factor_for_admins = false where id = $1',
          [church.id],
        );
        await other.end();
      }
    });
  });
}
