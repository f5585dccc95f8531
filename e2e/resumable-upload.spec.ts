import { randomBytes } from 'node:crypto';
import { makePdf, signInNewOrganization } from './support/documents.ts';
import { expect, test } from './support/test.ts';

// Issue 13: a file above 6 MB goes through Supabase Storage's resumable endpoint (TUS), so a
// connection that drops in the middle costs a retry from where the server stopped, not the file.

const CHUNK = 6 * 1024 * 1024;

test('a large file whose connection drops goes on from where the server stopped', async ({
  page,
  baseURL,
}) => {
  const member = await signInNewOrganization(page, baseURL!);
  const file = {
    name: `minutes-${Date.now().toString(36)}.pdf`,
    mimeType: 'application/pdf',
    buffer: Buffer.concat([
      makePdf('Minutes of the annual meeting'),
      randomBytes(13 * 1024 * 1024),
    ]),
  };

  // Every request of the upload, and the connection dropped once, during the second chunk.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (!request.url().includes('/storage/v1/upload/resumable')) return;
    const offset = request.headers()['upload-offset'];
    sent.push(offset === undefined ? request.method() : `${request.method()} ${offset}`);
  });
  let dropped = false;
  await page.route('**/storage/v1/upload/resumable/*', async (route) => {
    const request = route.request();
    if (!dropped && request.method() === 'PATCH' && request.headers()['upload-offset'] !== '0') {
      dropped = true;
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });

  await page.goto('/upload');
  await page.getByLabel('Choose files to upload').setInputFiles([file]);
  await page.getByLabel('Category', { exact: false }).first().selectOption('Other');
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await expect(page).toHaveURL(/\/documents/, { timeout: 60_000 });

  // After the drop the upload asked the server how much it had, and sent only the rest.
  expect(sent).toEqual([
    'POST',
    'PATCH 0',
    `PATCH ${CHUNK}`,
    'HEAD',
    `PATCH ${CHUNK}`,
    `PATCH ${2 * CHUNK}`,
  ]);
  const { data: row } = await member.api
    .from('documents')
    .select('file_path, size')
    .eq('name', file.name)
    .single<{ file_path: string; size: number }>();
  expect(row?.size).toBe(file.buffer.length);
  const stored = await member.api.storage.from('documents').download(row!.file_path);
  expect(Buffer.from(await stored.data!.arrayBuffer()).equals(file.buffer)).toBe(true);
});
