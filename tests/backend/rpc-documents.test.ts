import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  errorMessage,
  signUp,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';

/** A calendar date `days` from today in UTC, as `YYYY-MM-DD`. */
const utcDate = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

interface NewDocument {
  name: string;
  category: string;
  expiry_date?: string | null;
  tags?: string[];
}

async function addDocuments(person: Person, organisation: Organisation, documents: NewDocument[]) {
  const rows = documents.map((document, i) => ({
    organization_id: organisation.id,
    file_path: `documents/${organisation.id}/${Date.now()}-${i}.pdf`,
    size: 100,
    status: 'Active',
    tags: [],
    expiry_date: null,
    description: null,
    ...document,
  }));
  unwrap(await person.client.from('documents').insert(rows), 'insert documents');
}

describe('rpc document_stats and count_documents_matching', () => {
  let server: TestServer;
  let org: Organisation;
  let other: Organisation;
  let member: Person;
  let deactivated: Person;
  let loner: Person;

  beforeAll(async () => {
    server = await startTestServer();
    org = await createOrganisation(server, 'Stats Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, org, 'user');
    deactivated = await addDeactivatedMember(server, org);
    loner = await signUp(server, 'loner');
    await addDocuments(member, org, [
      { name: 'today.pdf', category: 'HR', expiry_date: utcDate(0), tags: ['Payroll'] },
      { name: 'in30.pdf', category: 'HR', expiry_date: utcDate(30) },
      { name: 'in31.pdf', category: 'Legal', expiry_date: utcDate(31), tags: ['hr-policy'] },
      { name: 'yesterday.pdf', category: 'Legal', expiry_date: utcDate(-1) },
      { name: 'long-ago.pdf', category: 'Reports', expiry_date: utcDate(-400), tags: ['100%'] },
      { name: 'none.pdf', category: 'Other', tags: ['Streaming', 'misc'] },
    ]);
    // Another organisation's documents never count.
    await addDocuments(other.master, other, [
      { name: 'theirs.pdf', category: 'HR', expiry_date: utcDate(-3), tags: ['hr'] },
      { name: 'theirs2.pdf', category: 'Funding', expiry_date: utcDate(3) },
    ]);
  });
  afterAll(() => server?.close());

  describe('document_stats', () => {
    it("counts the caller's organisation: total, expiring soon (today..+30 days), overdue (before today), categories in use", async () => {
      for (const caller of [member, org.master]) {
        const { data, error } = await caller.client.rpc('document_stats');
        expect(error).toBeNull();
        expect(data).toEqual({ total: 6, expiring_soon: 2, overdue: 2, categories: 4 });
      }
      const theirs = await other.master.client.rpc('document_stats');
      expect(theirs.data).toEqual({ total: 2, expiring_soon: 1, overdue: 1, categories: 2 });
    });

    it('gives zeros to an organisation without documents', async () => {
      const empty = await createOrganisation(server, 'Empty Church');
      const { data } = await empty.master.client.rpc('document_stats');
      expect(data).toEqual({ total: 0, expiring_soon: 0, overdue: 0, categories: 0 });
    });

    it('refuses people without an active membership', async () => {
      for (const caller of [loner, deactivated]) {
        expect(errorMessage(await caller.client.rpc('document_stats'))).toBe(
          'No organization found',
        );
      }
      expect((await server.anon().rpc('document_stats')).status).toBe(401);
    });
  });

  describe('count_documents_matching', () => {
    it('counts documents whose category or any tag contains the term, ignoring case', async () => {
      const count = async (term: string) => {
        const { data, error } = await member.client.rpc('count_documents_matching', { term });
        expect(error).toBeNull();
        return data as number;
      };
      expect(await count('hr')).toBe(3); // HR, HR, tag hr-policy
      expect(await count('LEGAL')).toBe(2);
      expect(await count('stream')).toBe(1); // tag Streaming
      expect(await count('payroll')).toBe(1);
      expect(await count('funding')).toBe(0); // only in the other organisation
      expect(await count('')).toBe(6);
    });

    it('treats % and _ as plain characters', async () => {
      const { data: percent } = await member.client.rpc('count_documents_matching', { term: '%' });
      expect(percent).toBe(1);
      const { data: underscore } = await member.client.rpc('count_documents_matching', {
        term: '_',
      });
      expect(underscore).toBe(0);
    });

    it('refuses people without an active membership', async () => {
      for (const caller of [loner, deactivated]) {
        expect(
          errorMessage(await caller.client.rpc('count_documents_matching', { term: 'hr' })),
        ).toBe('No organization found');
      }
      expect((await server.anon().rpc('count_documents_matching', { term: 'hr' })).status).toBe(
        401,
      );
    });
  });
});
