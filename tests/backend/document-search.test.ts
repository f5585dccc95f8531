import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { textPdf, xlsx } from '../support/sample-files.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// search_documents: one page of the organisation's documents, searched in their names, tags,
// categories, descriptions and the text inside their files (weighted in that order), with the
// search box's qualifiers, filters, every sort order and the total count.
describe('search_documents', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  const ids: Record<string, string> = {};

  interface Row {
    id: string;
    name: string;
    snippet: string | null;
    total_count: number;
    uploader_name: string | null;
    text_state: string;
  }

  const day = (offset: number) =>
    new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  async function find(args: Record<string, unknown>, who: Person = member): Promise<Row[]> {
    return unwrap(await who.client.rpc('search_documents', args), 'search_documents') as Row[];
  }
  /** The names found, in the order the page lists them. */
  const names = async (args: Record<string, unknown>, who?: Person) =>
    (await find(args, who)).map((row) => row.name);

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Search Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, church, 'user');
    const add = async (key: string, document: Parameters<typeof uploadDocument>[2]) => {
      ids[key] = (await uploadDocument(member, church.id, document)).id;
    };
    await add('certificate', {
      name: 'Insurance certificate.pdf',
      bytes: await textPdf(['Issued to the parish for the year']),
      contentType: 'application/pdf',
      category: 'Legal',
      tags: ['Youth'],
      expiryDate: day(-3),
    });
    await add('packing', {
      name: 'Camp packing list.txt',
      bytes: 'Bring sleeping bags. The insurance covers canoeing only with an instructor.',
      contentType: 'text/plain;charset=UTF-8',
      category: 'Other',
      tags: ['camp'],
      expiryDate: day(10),
    });
    await add('budget', {
      name: 'Budget 2027.xlsx',
      bytes: await xlsx('Budget', [['Organ tuning', 450]]),
      category: 'Financial',
      description: 'Insurance premiums are in row four',
      expiryDate: day(200),
    });
    await add('notes', {
      name: 'Notes.md',
      bytes: 'The youth camp was a great success, thanks to all volunteers',
      contentType: 'text/markdown;charset=UTF-8',
      category: 'Reports',
    });
    // Another organisation's document with the same words.
    await uploadDocument(other.master, other.id, {
      name: 'Insurance of the other church.txt',
      bytes: 'insurance youth camp',
      contentType: 'text/plain;charset=UTF-8',
    });
    await server.jobs.runDue();
  }, 120_000);
  afterAll(() => server?.close());

  it('ranks a match in the name above one in the description, above one in the text', async () => {
    expect(await names({ search: 'insurance' })).toEqual([
      'Insurance certificate.pdf',
      'Budget 2027.xlsx',
      'Camp packing list.txt',
    ]);
  });

  it('finds words inside files, with a snippet of where they are', async () => {
    const [organ] = await find({ search: 'organ tuning' });
    expect(organ).toMatchObject({ name: 'Budget 2027.xlsx', text_state: 'ready', total_count: 1 });
    expect(organ!.snippet).toContain('<mark>Organ</mark> <mark>tuning</mark>');
    // A match in the name alone has no snippet.
    expect((await find({ search: 'certificate' }))[0]).toMatchObject({
      name: 'Insurance certificate.pdf',
      snippet: null,
    });
    // Stemmed words: "volunteer" finds "volunteers".
    expect(await names({ search: 'volunteer' })).toEqual(['Notes.md']);
  });

  it('matches the word being typed as a prefix, and only the last one', async () => {
    expect(await names({ search: 'insura' })).toHaveLength(3);
    expect(await names({ search: 'certif' })).toEqual(['Insurance certificate.pdf']);
    expect(await names({ search: 'canoe' })).toEqual(['Camp packing list.txt']);
    // A finished word (followed by a space) is a word, not a prefix.
    expect(await names({ search: 'insura ' })).toEqual([]);
  });

  it('takes quoted phrases, "or" and excluded words', async () => {
    expect(await names({ search: '"youth camp"' })).toEqual(['Notes.md']);
    expect(await names({ search: 'organ or canoeing', sort_by: 'name' })).toEqual([
      'Budget 2027.xlsx',
      'Camp packing list.txt',
    ]);
    expect(await names({ search: 'insurance -camp' })).toEqual([
      'Insurance certificate.pdf',
      'Budget 2027.xlsx',
    ]);
  });

  it('reads the qualifiers tag:, category: and expires:', async () => {
    expect(await names({ search: 'tag:youth' })).toEqual(['Insurance certificate.pdf']);
    expect(await names({ search: 'TAG:Camp insurance' })).toEqual(['Camp packing list.txt']);
    expect(await names({ search: 'category:legal' })).toEqual(['Insurance certificate.pdf']);
    expect(await names({ search: 'category:"Social Media"' })).toEqual([]);
    expect(await names({ search: `expires:<${day(0)}` })).toEqual(['Insurance certificate.pdf']);
    expect(await names({ search: `expires:>=${day(10)}`, sort_by: 'name' })).toEqual([
      'Budget 2027.xlsx',
      'Camp packing list.txt',
    ]);
    expect(await names({ search: `expires:${day(10)}` })).toEqual(['Camp packing list.txt']);
    expect(await names({ search: 'expires:none' })).toEqual(['Notes.md']);
    expect(await names({ search: 'expires:overdue insurance' })).toEqual([
      'Insurance certificate.pdf',
    ]);
  });

  it('refuses a qualifier it cannot read, saying what it takes', async () => {
    const bad = await member.client.rpc('search_documents', { search: 'expires:soonish' });
    expect(errorMessage(bad)).toBe(
      'Search: expires: takes a date such as expires:<2027-01-01, or overdue, soon, later or none',
    );
    expect(bad.status).toBe(400);
    const date = await member.client.rpc('search_documents', { search: 'expires:<2027-13-45' });
    expect(errorMessage(date)).toBe('Search: 2027-13-45 is not a date');
    const sort = await member.client.rpc('search_documents', { sort_by: 'secret' });
    expect(errorMessage(sort)).toBe('Cannot sort by secret');
    const filter = await member.client.rpc('search_documents', { expiry_filter: 'tomorrow' });
    expect(errorMessage(filter)).toBe('Expiry filter must be overdue, soon, later or none');
  });

  it('filters by category, tag, expiry state, uploader and category page', async () => {
    expect(await names({ expiry_filter: 'overdue' })).toEqual(['Insurance certificate.pdf']);
    expect(await names({ expiry_filter: 'soon' })).toEqual(['Camp packing list.txt']);
    expect(await names({ expiry_filter: 'later' })).toEqual(['Budget 2027.xlsx']);
    expect(await names({ expiry_filter: 'none' })).toEqual(['Notes.md']);
    expect(await names({ category_filter: 'Financial' })).toEqual(['Budget 2027.xlsx']);
    expect(await names({ tag_filter: 'camp' })).toEqual(['Camp packing list.txt']);
    expect(await names({ uploaded_by_filter: member.userId })).toHaveLength(4);
    expect(await names({ uploaded_by_filter: church.master.userId })).toEqual([]);
    expect(
      await names({ section_category: 'Legal', section_tags: ['camp'], sort_by: 'name' }),
    ).toEqual(['Camp packing list.txt', 'Insurance certificate.pdf']);
    const [row] = await find({ category_filter: 'Reports' });
    expect(row!.uploader_name).toBe(`user of ${church.name}`);
  });

  it('sorts by every column, both ways', async () => {
    expect(await names({ sort_by: 'name' })).toEqual([
      'Budget 2027.xlsx',
      'Camp packing list.txt',
      'Insurance certificate.pdf',
      'Notes.md',
    ]);
    expect(await names({ sort_by: 'name', sort_descending: true })).toEqual([
      'Notes.md',
      'Insurance certificate.pdf',
      'Camp packing list.txt',
      'Budget 2027.xlsx',
    ]);
    // Without a date: last, either way.
    expect(await names({ sort_by: 'expiry_date' })).toEqual([
      'Insurance certificate.pdf',
      'Camp packing list.txt',
      'Budget 2027.xlsx',
      'Notes.md',
    ]);
    expect((await names({ sort_by: 'expiry_date', sort_descending: true }))[0]).toBe(
      'Budget 2027.xlsx',
    );
    expect(await names({ sort_by: 'category' })).toEqual([
      'Budget 2027.xlsx',
      'Insurance certificate.pdf',
      'Camp packing list.txt',
      'Notes.md',
    ]);
    // Newest first by default.
    expect(await names({})).toEqual([
      'Notes.md',
      'Budget 2027.xlsx',
      'Camp packing list.txt',
      'Insurance certificate.pdf',
    ]);
    expect((await names({ sort_by: 'upload_date', sort_descending: false }))[0]).toBe(
      'Insurance certificate.pdf',
    );
    const bySize = await find({ sort_by: 'size' });
    const sizes = bySize.map((row) => (row as unknown as { size: number }).size);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(await names({ sort_by: 'status' })).toHaveLength(4);
  });

  it('serves one page at a time with the total count on every row', async () => {
    const first = await find({ sort_by: 'name', page_size: 3 });
    const second = await find({ sort_by: 'name', page_size: 3, page_offset: 3 });
    expect(first.map((r) => r.name)).toEqual([
      'Budget 2027.xlsx',
      'Camp packing list.txt',
      'Insurance certificate.pdf',
    ]);
    expect(second.map((r) => r.name)).toEqual(['Notes.md']);
    expect([...first, ...second].map((r) => r.total_count)).toEqual([4, 4, 4, 4]);
    expect((await find({ search: 'insurance', page_size: 1 }))[0]!.total_count).toBe(3);
  });

  it('stops counting a search’s matches at the limit, then lists the newest matches first', async () => {
    interface Counted extends Row {
      total_capped: boolean;
    }
    const counted = async (args: Record<string, unknown>) => (await find(args)) as Counted[];
    // Three match "insurance": past a limit of two the total says "more than 2", and the page
    // is the newest matches, not the best ranked.
    const capped = await counted({ search: 'insurance', count_limit: 2 });
    expect(capped.map((r) => r.name)).toEqual([
      'Budget 2027.xlsx',
      'Camp packing list.txt',
      'Insurance certificate.pdf',
    ]);
    expect(capped.map((r) => [r.total_count, r.total_capped])).toEqual([
      [2, true],
      [2, true],
      [2, true],
    ]);
    // Within the limit: exact and ranked.
    const within = await counted({ search: 'insurance', count_limit: 3 });
    expect(within.map((r) => [r.name, r.total_count, r.total_capped])).toEqual([
      ['Insurance certificate.pdf', 3, false],
      ['Budget 2027.xlsx', 3, false],
      ['Camp packing list.txt', 3, false],
    ]);
    // Without words the total is exact whatever the limit; a larger limit than 10,000 is taken
    // as 10,000.
    const all = await counted({ count_limit: 1 });
    expect(all.map((r) => [r.total_count, r.total_capped])[0]).toEqual([4, false]);
    const raised = await counted({ search: 'insurance', count_limit: 1_000_000 });
    expect(raised[0]).toMatchObject({ total_count: 3, total_capped: false });
  });

  it('follows a rename, new tags and a new description at once, keeping the words inside', async () => {
    const doc = await uploadDocument(member, church.id, {
      name: 'Scan 0001.txt',
      bytes: 'Quinquennial inspection of the tower',
      contentType: 'text/plain;charset=UTF-8',
    });
    await server.jobs.runDue();
    unwrap(
      await member.client
        .from('documents')
        .update({ name: 'Architect report.txt', tags: ['steeple'], description: 'Bells' })
        .eq('id', doc.id),
      'rename',
    );
    expect(await names({ search: 'architect' })).toEqual(['Architect report.txt']);
    expect(await names({ search: 'steeple bells quinquennial' })).toEqual(['Architect report.txt']);
    expect(await names({ search: '"inspection of the tower"' })).toEqual(['Architect report.txt']);
    expect(await names({ search: 'scan 0001' })).toEqual([]);
    unwrap(await member.client.rpc('delete_documents', { document_ids: [doc.id] }), 'clean up');
  });

  it('keeps every organisation to its own documents', async () => {
    expect(await names({ search: 'insurance' }, other.master)).toEqual([
      'Insurance of the other church.txt',
    ]);
    expect(await names({ search: 'youth camp' }, other.master)).toEqual([
      'Insurance of the other church.txt',
    ]);
  });
});
