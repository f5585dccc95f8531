import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganisation, unwrap, type Organisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DOCUMENTS = 300;
/** The longest description a document may have. */
const DESCRIPTION_LENGTH = 10_000;
/** steward.toml [api] max_filtered_text. */
const BUDGET = 8 * 1024 ** 2;

/** A description of `DESCRIPTION_LENGTH` characters, with `word` in the middle of one. */
function description(seed: number, word?: string): string {
  const words = 'the parish council agreed to repair the roof before the winter'.split(' ');
  const parts: string[] = [];
  for (let i = 0, length = 0; length < DESCRIPTION_LENGTH; i++) {
    const next = i === 700 && word ? word : words[(i * 7 + seed) % words.length]!;
    parts.push(next);
    length += next.length + 1;
  }
  return parts.join(' ').slice(0, DESCRIPTION_LENGTH);
}

// Issue 22: filters that read the text of every row, over long texts. A pattern or full-text
// filter on `description` (up to 10,000 characters) read every description of the organisation
// in one statement: `description=fts.x` parsed 300 of them in about 4 s, a regular expression
// with a back-reference took minutes, and on the embedded database nobody else was served
// meanwhile. What one request's filters read is now bounded (steward.toml [api]
// max_filtered_text), and the patterns whose time does not follow the text's size are refused.
describe('REST filters that read long texts', () => {
  let server: TestServer;
  let church: Organisation;

  const documents = () => church.master.client.from('documents');

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Long Descriptions Church');
    const rows = Array.from({ length: DOCUMENTS }, (_, i) => ({
      organization_id: church.id,
      name: `Minutes ${i}.pdf`,
      category: 'Reports',
      size: 1000,
      file_path: `documents/${church.id}/minutes-${i}.pdf`,
      status: 'Active',
      description: description(i, i === 42 ? 'wheelchair' : undefined),
    }));
    for (let start = 0; start < rows.length; start += 50) {
      unwrap(await documents().insert(rows.slice(start, start + 50)), 'insert documents');
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('reads patterns through every description while they stay within the bound', async () => {
    // 300 descriptions of 10,000 characters: 3 MB, read once for the rows and once more for
    // the count.
    const found = await documents()
      .select('name', { count: 'exact' })
      .ilike('description', '%wheelchair%');
    expect(found.error).toBeNull();
    expect(found.data).toEqual([{ name: 'Minutes 42.pdf' }]);
    expect(found.count).toBe(1);
    const like = await documents().select('name').like('description', '%Wheelchair%');
    expect(like.data).toEqual([]);
  });

  it('refuses a request whose filters would read more text than the bound', async () => {
    // Full-text search on a text column parses it: each byte counts 16 times (48 MB here).
    const parsed = await documents().select('name').textSearch('description', 'wheelchair');
    expect(parsed.status).toBe(400);
    expect(parsed.error).toMatchObject({
      code: '54000',
      message: `The filters of this request read more than ${BUDGET} bytes of text`,
    });
    // A regular expression counts 8 times; each pattern of a list reads the text again.
    const regex = await documents().select('name').regexMatch('description', 'wheel.hair');
    expect(regex.error).toMatchObject({ code: '54000' });
    const many = await documents()
      .select('name')
      .likeAnyOf(
        'description',
        Array.from({ length: 5 }, (_, i) => `%ramp${i}%`),
      );
    expect(many.error).toMatchObject({ code: '54000' });
  });

  it('narrows with the other filters first, and parses short texts freely', async () => {
    const one = await documents()
      .select('name')
      .eq('name', 'Minutes 42.pdf')
      .textSearch('description', 'wheelchair');
    expect(one.error).toBeNull();
    expect(one.data).toEqual([{ name: 'Minutes 42.pdf' }]);
    const names = await documents()
      .select('name', { count: 'exact', head: true })
      .textSearch('name', 'minutes');
    expect(names.error).toBeNull();
    expect(names.count).toBe(DOCUMENTS);
    const regex = await documents().select('name').regexMatch('name', '^Minutes 4[2]\\.pdf$');
    expect(regex.data).toEqual([{ name: 'Minutes 42.pdf' }]);
  });

  it('refuses back-references and lookaround in regular expressions, whose time has no bound', async () => {
    for (const pattern of ['^(.*)\\1$', '(?=.*wheelchair)', 'a(?!b)', '(?<=x)y', '(?<!x)y']) {
      const answer = await documents().select('name').regexMatch('name', pattern);
      expect({ pattern, status: answer.status, error: answer.error }).toMatchObject({
        pattern,
        status: 400,
        error: { code: '2201B' },
      });
    }
    const imatch = await documents().select('name').regexIMatch('name', '(.)\\1');
    expect(imatch.error?.message).toBe(
      'invalid regular expression: back-references are not supported',
    );
    // An escaped backslash followed by a digit, and a group that only sets an option, are fine.
    const literal = await documents()
      .select('name')
      .regexMatch('name', '\\\\1|(?:Minutes 7\\.pdf)');
    expect(literal.data).toEqual([{ name: 'Minutes 7.pdf' }]);
  });
});
