import ExcelJS from 'exceljs';
import { Parser } from 'htmlparser2';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { paragraphBombDocx } from '../support/hostile-files.ts';
import {
  hyperlink,
  paragraph,
  picture,
  table,
  TINY_PNG,
  wordDocument,
} from '../support/office-files.ts';
import { xlsx } from '../support/sample-files.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Issue 25, item 2: Word and Excel files are previewed as HTML that Steward renders itself, in
// a capped background process, sanitised, cached per stored version, and served to those who
// may view the document under a policy that lets the page run and load nothing.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Every element of a page, with its attributes, as a browser's parser would see them. */
function elementsOf(html: string): { tag: string; attributes: Record<string, string> }[] {
  const found: { tag: string; attributes: Record<string, string> }[] = [];
  const parser = new Parser({
    onopentag: (tag, attributes) => found.push({ tag, attributes }),
  });
  parser.write(html);
  parser.end();
  return found;
}

/** The words of a page without its markup. */
function textOf(html: string): string {
  let text = '';
  const parser = new Parser({ ontext: (chunk) => (text += chunk) });
  parser.write(html);
  parser.end();
  return text.replace(/\s+/g, ' ');
}

describe('Word and Excel previews', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  let outsider: Person;
  let bombDocx: Uint8Array;

  /** The app's address for the preview of `filePath` named `name`, signed by `who`. */
  async function previewAddress(who: Person, filePath: string, name: string, kind = 'office') {
    const signed = unwrap(
      await who.client.storage.from('documents').createSignedUrl(filePath, 3600),
      'createSignedUrl',
    );
    const token = new URL(signed.signedUrl).searchParams.get('token')!;
    return `${server.url}/preview/v1/${kind}/${encodeURIComponent(name)}?token=${token}`;
  }

  const upload = (who: Person, name: string, bytes: Uint8Array, type: string) =>
    uploadDocument(who, church.id, { name, bytes, contentType: type });

  beforeAll(async () => {
    bombDocx = paragraphBombDocx();
    server = await startTestServer({
      env: { JOB_POLL_INTERVAL: '1h', PREVIEW_MAX_ROWS: '50', PREVIEW_MAX_COLUMNS: '5' },
    });
    church = await createOrganisation(server, 'Preview Church');
    other = await createOrganisation(server, 'Neighbour Church');
    member = await addMember(server, church, 'user');
    outsider = await addMember(server, other, 'admin');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('renders a Word document’s headings, list, table and picture, under a strict policy', async () => {
    const bytes = wordDocument(
      paragraph('Volunteer Handbook', { style: 'Heading1' }) +
        paragraph('Safeguarding', { style: 'Heading2' }) +
        paragraph('Two adults present', { list: true }) +
        paragraph('Sign the register', { list: true }) +
        table([
          ['Role', 'Contact'],
          ['Lead', 'Ruth Ellis'],
        ]) +
        picture('rIdLogo', 'Church logo'),
      [{ id: 'rIdLogo', type: 'image', target: 'media/logo.png' }],
      { 'media/logo.png': TINY_PNG },
    );
    const document = await upload(member, 'Volunteer Handbook.docx', bytes, DOCX);
    const response = await fetch(
      await previewAddress(member, document.filePath, 'Volunteer Handbook.docx'),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    const elements = elementsOf(html);
    const tags = elements.map((e) => e.tag);
    expect(tags).toEqual(expect.arrayContaining(['h1', 'h2', 'ul', 'li', 'table', 'td', 'img']));
    expect(textOf(html)).toContain('Volunteer Handbook');
    expect(html).toContain('<title>Volunteer Handbook.docx</title>');
    expect(html).toMatch(/<h1>Volunteer Handbook<\/h1>/);
    expect(html).toMatch(/<li>Two adults present<\/li><li>Sign the register<\/li>/);
    expect(textOf(html)).toContain('Ruth Ellis');
    const image = elements.find((e) => e.tag === 'img')!;
    expect(image.attributes.alt).toBe('Church logo');
    expect(image.attributes.src).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
  });

  it('leaves out scripts, event handlers, outside pictures and links that leave the page', async () => {
    const bytes = wordDocument(
      paragraph('<script>alert("word")</script><img src=x onerror=alert(1)>') +
        picture('rIdTracker', 'Tracker', true) +
        hyperlink('rIdScript', 'Run me') +
        hyperlink('rIdSite', 'Our website') +
        // An anchor within the page whose name tries to break out of its attribute.
        '<w:p><w:hyperlink w:anchor="top&quot; onclick=&quot;alert(2)"><w:r><w:t>Back to top</w:t></w:r></w:hyperlink></w:p>',
      [
        {
          id: 'rIdTracker',
          type: 'image',
          target: 'https://tracker.example/t.png',
          external: true,
        },
        { id: 'rIdScript', type: 'hyperlink', target: 'javascript:alert(3)', external: true },
        { id: 'rIdSite', type: 'hyperlink', target: 'https://phish.example/', external: true },
      ],
    );
    const document = await upload(member, 'Hostile.docx', bytes, DOCX);
    const response = await fetch(await previewAddress(member, document.filePath, 'Hostile.docx'));
    expect(response.status).toBe(200);
    const html = await response.text();
    const elements = elementsOf(html);
    // The page's own head aside, nothing but the document's text and structure.
    expect(elements.map((e) => e.tag)).not.toContain('script');
    for (const element of elements) {
      for (const [name, value] of Object.entries(element.attributes)) {
        expect(name).not.toMatch(/^on/i);
        if (name === 'src') expect(value).toMatch(/^data:image\//);
        if (name === 'href') expect(value).toMatch(/^#[\w.-]+$/);
      }
    }
    expect(html).not.toMatch(/tracker\.example|phish\.example|javascript:/);
    // What the words said is still shown, as words.
    expect(textOf(html)).toContain('<script>alert("word")</script>');
    expect(textOf(html)).toContain('Our website');
  });

  it('renders every sheet of a workbook under its name, and says what a large sheet left out', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Rota').addRows([
      ['Sunday', 'Reader'],
      ['1 March', 'Ada <b>Lovelace</b>'],
    ]);
    const budget = workbook.addWorksheet('Budget');
    for (let r = 1; r <= 120; r++) {
      budget.addRow(Array.from({ length: 8 }, (_, c) => `r${r}c${c + 1}`));
    }
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const document = await upload(member, 'Planning.xlsx', bytes, XLSX);
    const response = await fetch(await previewAddress(member, document.filePath, 'Planning.xlsx'));
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = textOf(html);
    expect(elementsOf(html).filter((e) => e.tag === 'h2')).toHaveLength(2);
    expect(html).toContain('<h2>Rota</h2>');
    expect(html).toContain('<h2>Budget</h2>');
    expect(text).toContain('Ada <b>Lovelace</b>');
    expect(elementsOf(html).map((e) => e.tag)).not.toContain('b');
    expect(text).toContain('Showing the first 50 rows of 120.');
    expect(text).toContain('Showing the first 5 columns of 8.');
    expect(text).toContain('r50c5');
    expect(text).not.toContain('r51c1');
    expect(text).not.toContain('r1c6');
  });

  it('refuses a paragraph bomb with a reason, and answers meanwhile', async () => {
    const document = await upload(member, 'Bomb.docx', bombDocx, DOCX);
    const address = await previewAddress(member, document.filePath, 'Bomb.docx');
    const [response, config] = await Promise.all([
      fetch(address),
      fetch(`${server.url}/config.json`),
    ]);
    expect(config.status).toBe(200);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      statusCode: '422',
      code: 'PreviewUnavailable',
      error: 'Unprocessable Entity',
      message: 'This file could not be read: its text unpacks to more than 16 MiB',
    });
    // Asked again, the answer is remembered rather than worked out again.
    const again = await fetch(address);
    expect(again.status).toBe(422);
    expect((await fetch(`${server.url}/config.json`)).status).toBe(200);
  });

  it('says plainly that an old .doc file cannot be previewed', async () => {
    // The header of the older Office format (a compound file), which Word 97–2003 writes.
    const bytes = new Uint8Array(4096);
    bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const document = await upload(member, 'Minutes 2003.doc', bytes, 'application/msword');
    const response = await fetch(
      await previewAddress(member, document.filePath, 'Minutes 2003.doc'),
    );
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toBe(
      'Only Word (.docx) and Excel (.xlsx) files can be previewed; older (.doc, .xls) and password-protected ones cannot. Download the file to open it.',
    );
  });

  it('renders a new version anew, never the old render for the new file, and keeps one file per version', async () => {
    const first = await upload(member, 'Rota.xlsx', await xlsx('Rota', [['First rota']]), XLSX);
    const firstHtml = await (
      await fetch(await previewAddress(member, first.filePath, 'Rota.xlsx'))
    ).text();
    expect(textOf(firstHtml)).toContain('First rota');

    const newPath = `documents/${church.id}/${Date.now()}-second.xlsx`;
    unwrap(
      await member.client.storage
        .from('documents')
        .upload(newPath, Buffer.from(await xlsx('Rota', [['Second rota']])), {
          contentType: XLSX,
        }),
      'upload of the new version',
    );
    unwrap(
      await member.client.rpc('replace_document_file', {
        document_id: first.id,
        file_path: newPath,
        change: 'file_replacement',
      }),
      'replace_document_file',
    );
    const second = await fetch(await previewAddress(member, newPath, 'Rota.xlsx'));
    const secondHtml = await second.text();
    expect(textOf(secondHtml)).toContain('Second rota');
    expect(textOf(secondHtml)).not.toContain('First rota');

    const { rows } = await server.db
      .serverWork()
      .query<{ version: string }>(
        `select version from storage.objects where bucket_id = 'documents' and name = any($1)`,
        [[first.filePath, newPath]],
      );
    const previews = path.join(server.dataDir, 'previews');
    for (const { version } of rows) {
      expect(existsSync(path.join(previews, `${version}.html`))).toBe(true);
    }
  });

  it('removes a document’s renders when it is deleted for ever', async () => {
    const admin = church.master;
    const document = await upload(member, 'Leaving.xlsx', await xlsx('S', [['bye']]), XLSX);
    expect(
      (await fetch(await previewAddress(member, document.filePath, 'Leaving.xlsx'))).status,
    ).toBe(200);
    const { rows } = await server.db
      .serverWork()
      .query<{ version: string }>(
        `select version from storage.objects where bucket_id = 'documents' and name = $1`,
        [document.filePath],
      );
    const render = path.join(server.dataDir, 'previews', `${rows[0]!.version}.html`);
    expect(existsSync(render)).toBe(true);
    unwrap(await member.client.rpc('delete_documents', { document_ids: [document.id] }), 'delete');
    unwrap(await admin.client.rpc('purge_documents', { document_ids: [document.id] }), 'purge');
    await server.jobs.runDue();
    expect(existsSync(render)).toBe(false);
  });

  it('shows a PDF under an address ending with its name, to those who may read it only', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n% a tiny file\n');
    const document = await upload(member, 'Insurance 2027.pdf', pdf, 'application/pdf');
    const address = await previewAddress(member, document.filePath, 'Insurance 2027.pdf', 'file');
    expect(new URL(address).pathname.split('/').pop()).toBe('Insurance%202027.pdf');
    const response = await fetch(address);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''Insurance%202027.pdf",
    );
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf);

    // Someone of another organisation can sign no link to it, and a forged one is refused.
    const signed = await outsider.client.storage
      .from('documents')
      .createSignedUrl(document.filePath, 3600);
    expect(signed.error).not.toBeNull();
    const forged = address.replace(/token=[^&]+/, 'token=not-a-token');
    expect((await fetch(forged)).status).toBe(400);
    expect((await fetch(address.replace(/\?token=.*/, ''))).status).toBe(400);
  });

  it('shows a shared Word file through its share link, and no more once revoked, expired or trashed', async () => {
    const session = (await member.client.auth.getSession()).data.session!;
    const share = (path: string) => `${server.url}/share/v1${path}`;
    const makeLink = async (documentId: string) => {
      const response = await fetch(share('/links'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          apikey: server.keys.anonKey,
          authorization: `Bearer ${session.access_token}`,
        },
        body: JSON.stringify({ document_id: documentId }),
      });
      expect(response.status).toBe(201);
      const link = (await response.json()) as { id: string; token: string };
      const opened = (await (await fetch(share(`/s/${link.token}`))).json()) as {
        access: string;
      };
      const preview = () =>
        fetch(share(`/s/${link.token}/preview?access=${encodeURIComponent(opened.access)}`));
      return { ...link, access: opened.access, preview };
    };
    const bytes = wordDocument(paragraph('Safeguarding policy for parents', { style: 'Heading1' }));
    const document = await upload(member, 'Safeguarding.docx', bytes, DOCX);

    const link = await makeLink(document.id);
    const shown = await link.preview();
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(shown.headers.get('content-security-policy')).toContain('sandbox');
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await shown.text()).toContain('<h1>Safeguarding policy for parents</h1>');
    // Without the page's grant, nothing.
    expect((await fetch(share(`/s/${link.token}/preview`))).status).toBe(401);
    // The file itself also at an address ending with the document's name, and named so.
    const named = await fetch(
      share(`/s/${link.token}/file/Safeguarding.docx?access=${encodeURIComponent(link.access)}`),
    );
    expect(named.status).toBe(200);
    expect(named.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''Safeguarding.docx",
    );
    expect(new Uint8Array(await named.arrayBuffer())).toEqual(bytes);

    unwrap(await member.client.rpc('revoke_share_link', { link_id: link.id }), 'revoke');
    expect((await link.preview()).status).toBe(404);

    const expiring = await makeLink(document.id);
    await server.db.serverWork().query(
      `update public.share_links set created_at = now() - interval '7 days',
              expires_at = now() - interval '1 minute' where id = $1`,
      [expiring.id],
    );
    expect((await expiring.preview()).status).toBe(404);

    const trashed = await makeLink(document.id);
    expect((await trashed.preview()).status).toBe(200);
    unwrap(await member.client.rpc('delete_documents', { document_ids: [document.id] }), 'trash');
    expect((await trashed.preview()).status).toBe(404);
  });
});

describe('the cache of rendered previews', () => {
  let server: TestServer;
  let church: Organisation;
  let member: Person;

  beforeAll(async () => {
    // Room for two renders of the workbooks below (each about 450 bytes), not three.
    server = await startTestServer({
      env: { JOB_POLL_INTERVAL: '1h', PREVIEW_CACHE_SIZE: '1000' },
    });
    church = await createOrganisation(server, 'Cache Church');
    member = await addMember(server, church, 'user');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the installation’s renders within its size, the least recently shown removed first', async () => {
    const files: Record<string, { path: string; render: string }> = {};
    for (const name of ['A', 'B', 'C']) {
      const document = await uploadDocument(member, church.id, {
        name: `${name}.xlsx`,
        bytes: await xlsx(name, [[name.repeat(300)]]),
        contentType: XLSX,
      });
      const { rows } = await server.db
        .serverWork()
        .query<{ version: string }>(
          `select version from storage.objects where bucket_id = 'documents' and name = $1`,
          [document.filePath],
        );
      files[name] = {
        path: document.filePath,
        render: path.join(server.dataDir, 'previews', `${rows[0]!.version}.html`),
      };
    }
    const show = async (name: string) => {
      const signed = unwrap(
        await member.client.storage.from('documents').createSignedUrl(files[name]!.path, 60),
        'createSignedUrl',
      );
      const token = new URL(signed.signedUrl).searchParams.get('token')!;
      const response = await fetch(`${server.url}/preview/v1/office/${name}.xlsx?token=${token}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(name.repeat(300));
    };
    const kept = () => ['A', 'B', 'C'].filter((name) => existsSync(files[name]!.render));

    await show('A');
    await show('B');
    expect(kept()).toEqual(['A', 'B']);
    await show('C');
    expect(kept()).toEqual(['B', 'C']);
    // A is rendered anew; B, now the least recently shown, makes room.
    await show('A');
    expect(kept()).toEqual(['A', 'C']);
  });
});
