import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileTasks } from '../../server/file-tasks.ts';
import { ProcessPool } from '../../server/workers/process-pool.ts';
import type { ExtractTextArgs } from '../../server/workers/text-extraction-tasks.ts';
import {
  docx,
  passwordProtectedPdf,
  scannedCertificatePng,
  scannedPdf,
  textPdf,
  xlsx,
} from '../support/sample-files.ts';
import { hugeScanPdf } from '../support/hostile-files.ts';

// Reading the text of every kind of file, as the background job does: in a background process
// (a child process under a memory cap), from a file on disk, within the limits of steward.toml
// [text_extraction]. Real files, made by the libraries that write them or committed as
// fixtures; the OCR model comes from an npm package, nothing is downloaded.
describe('text extraction in the background processes', () => {
  let pool: ProcessPool<FileTasks>;
  let dir: string;
  let counter = 0;

  const limits = {
    maxPages: 50,
    maxOcrPages: 5,
    maxCharacters: 100_000,
    maxImagePixels: 25_000_000,
    maxUnpackedBytes: 16 * 1024 ** 2,
  };

  /** The task's arguments for a file of this directory, with the limits above. */
  const taskArgs = (file: string, name: string): ExtractTextArgs => ({
    path: file,
    name,
    mimeType: '',
    ...limits,
  });

  async function extract(
    bytes: Uint8Array | string,
    name: string,
    options: Partial<Omit<ExtractTextArgs, 'path' | 'name'>> = {},
  ) {
    const file = path.join(dir, `${counter++}-${name}`);
    await writeFile(file, bytes);
    return pool.run('extractText', { ...taskArgs(file, name), ...options }, { lane: 'test' });
  }

  beforeAll(async () => {
    pool = new ProcessPool<FileTasks>({
      tasksModule: new URL('../../server/file-tasks.ts', import.meta.url),
      processes: 1,
      memoryLimitBytes: 768 * 1024 ** 2,
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'steward-extraction-'));
  });
  afterAll(async () => {
    await pool?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the text layer of a PDF, page by page', async () => {
    const result = await extract(
      await textPdf(['Minutes of the parish council', 'The gutters need repair']),
      'minutes.pdf',
    );
    expect(result).toEqual({
      state: 'ready',
      text: 'Minutes of the parish council\n\nThe gutters need repair',
      pages: 2,
      truncated: false,
    });
  });

  it('reads a PDF without a text layer by OCR of its scanned image', async () => {
    const result = await extract(await scannedPdf(), 'scan.pdf');
    expect(result.state).toBe('ready');
    const text = result.state === 'ready' ? result.text : '';
    expect(text).toMatch(/insurance for the youth camp/i);
    expect(text).toMatch(/Lakeside Retreat/);
  }, 120_000);

  it('reads a scanned page as large as max_image_pixels allows within the default memory cap', async () => {
    // 5000 × 5000 = 25 million pixels, the default limit: decoded, converted for OCR and read
    // by tesseract in a process of at most 768 MiB.
    const result = await extract(await hugeScanPdf(1, 5000), 'large-scan.pdf');
    expect(result).toMatchObject({ state: 'ready', pages: 1 });
  }, 120_000);

  it('reads an image by OCR', async () => {
    const result = await extract(scannedCertificatePng(), 'certificate.png');
    expect(result.state === 'ready' && result.text).toMatch(/Certificate of insurance/);
  }, 120_000);

  it('reads Word and Excel files', async () => {
    expect(
      await extract(docx(['Volunteer rota for Advent', 'Bring & share lunch']), 'rota.docx'),
    ).toMatchObject({ state: 'ready', text: 'Volunteer rota for Advent\n\nBring & share lunch' });
    const workbook = await extract(
      await xlsx('Budget 2027', [
        ['Item', 'Amount'],
        ['Organ tuning', 450],
      ]),
      'budget.xlsx',
    );
    expect(workbook).toMatchObject({
      state: 'ready',
      text: 'Budget 2027\nItem Amount\nOrgan tuning 450',
    });
  });

  it('reads text formats, markup without its tags and scripts', async () => {
    for (const [name, content] of [
      ['notes.txt', 'Hymn numbers for Sunday'],
      ['readme.md', '# Hymn numbers for Sunday'],
      ['list.csv', 'name,role\nRuth,treasurer'],
      ['data.json', '{"hall": "booked for the bazaar"}'],
    ]) {
      const result = await extract(content!, name!);
      expect(result).toMatchObject({ state: 'ready', text: content!.trim() });
    }
    const html = await extract(
      '<html><head><style>p{color:red}</style><script>var secret = 1;</script></head>' +
        '<body><p>Parish &amp; hall</p><!-- hidden note --></body></html>',
      'page.html',
    );
    expect(html).toMatchObject({ state: 'ready', text: 'Parish & hall' });
    const xml = await extract('<?xml version="1.0"?><roster><name>Ruth</name></roster>', 'r.xml');
    expect(xml).toMatchObject({ state: 'ready', text: 'Ruth' });
  });

  it('reads a file by what it is, not by what its name says', async () => {
    const pdfNamedText = await extract(await textPdf(['Deed of the church hall']), 'deed.txt', {
      mimeType: 'text/plain',
    });
    expect(pdfNamedText).toMatchObject({ state: 'ready', text: 'Deed of the church hall' });
    const textNamedPdf = await extract('Just plain words, saved as .pdf', 'fake.pdf', {
      mimeType: 'application/pdf',
    });
    expect(textNamedPdf).toMatchObject({ state: 'ready', text: 'Just plain words, saved as .pdf' });
  });

  it('says why a damaged, encrypted, empty or unknown file has no text', async () => {
    expect(await extract('%PDF-1.7\nthis is not really a PDF', 'broken.pdf')).toEqual({
      state: 'unavailable',
      reason: 'The PDF is damaged and cannot be read',
    });
    expect(await extract(passwordProtectedPdf(), 'salaries.pdf')).toEqual({
      state: 'unavailable',
      reason: 'The PDF is password-protected',
    });
    expect(await extract(new Uint8Array(), 'empty.txt')).toEqual({
      state: 'unavailable',
      reason: 'The file is empty',
    });
    // Encrypted Word and Excel files (and .doc/.xls) are OLE compound files.
    const ole = new Uint8Array(512);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await extract(ole, 'locked.docx')).toEqual({
      state: 'unavailable',
      reason: 'The file is password-protected or in an older Office format (.doc, .xls)',
    });
    expect(await extract(new Uint8Array([0, 1, 2, 3, 0, 0, 255]), 'blob.bin')).toEqual({
      state: 'unavailable',
      reason: 'Text is read from PDF, Word, Excel, text and image files only',
    });
    const brokenPng = new Uint8Array(200).fill(7);
    brokenPng.set([0x89, 0x50, 0x4e, 0x47]);
    expect(await extract(brokenPng, 'photo.png')).toEqual({
      state: 'unavailable',
      reason: 'The image is damaged or of a kind that cannot be read',
    });
  }, 60_000);

  it('keeps within the limits: characters, pages, and no OCR where none is allowed', async () => {
    const long = await extract('word '.repeat(5000), 'long.txt', { maxCharacters: 1000 });
    expect(long.state === 'ready' && long.text.length).toBe(1000);
    expect(long).toMatchObject({ truncated: true });

    const pages = await extract(
      await textPdf(['first page', 'second page', 'third page']),
      'p.pdf',
      {
        maxPages: 2,
      },
    );
    expect(pages).toEqual({
      state: 'ready',
      text: 'first page\n\nsecond page',
      pages: 2,
      truncated: true,
    });

    expect(await extract(scannedCertificatePng(), 'c.png', { maxOcrPages: 0 })).toEqual({
      state: 'unavailable',
      reason: 'Images are not read on this installation',
    });
    expect(await extract(await scannedPdf(), 'scan.pdf', { maxOcrPages: 0 })).toEqual({
      state: 'ready',
      text: '',
      pages: 1,
      truncated: true,
    });
  });

  it('stops a task whose time is up by ending its process, and the pool goes on', async () => {
    const controller = new AbortController();
    const running = extract(await scannedPdf(), 'slow.pdf', {}).catch((e: unknown) => e);
    // Not this one: a separate run with the signal.
    const file = path.join(dir, 'aborted.pdf');
    await writeFile(file, await scannedPdf());
    const aborted = pool
      .run('extractText', taskArgs(file, 'aborted.pdf'), {
        lane: 'test',
        signal: controller.signal,
      })
      .catch((e: unknown) => e);
    controller.abort(new Error('time is up'));
    expect(await aborted).toBeInstanceOf(Error);
    expect(await running).toMatchObject({ state: 'ready' });
    expect(await extract('still reading', 'after.txt')).toMatchObject({ text: 'still reading' });
  }, 120_000);

  it('fails a task given to a process that has just died, and the pool goes on', async () => {
    expect(await extract('warm', 'warm.txt')).toMatchObject({ text: 'warm' });
    const file = path.join(dir, 'lost.txt');
    await writeFile(file, 'lost');
    // Killed while idle, and the task given at once, before the pool has heard of the death: the
    // task fails with the process (it must not wait for an answer or an exit that never comes).
    const [pid] = pool.pids;
    process.kill(pid!, 'SIGKILL');
    const lost = await pool
      .run('extractText', taskArgs(file, 'lost.txt'), { lane: 'test' })
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(Error);
    expect(await extract('still reading', 'after.txt')).toMatchObject({ text: 'still reading' });
  });

  it('gives a task that comes as an idle process is being ended to a new process', async () => {
    // Only the idle timer's clock is faked, so that the task comes in the same turn of the event
    // loop as the timer ends the process: its exit is not heard yet. The task used to be given
    // to that process and failed with it ("the process was ended"), or met its closed channel.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const idling = new ProcessPool<FileTasks>({
      tasksModule: new URL('../../server/file-tasks.ts', import.meta.url),
      processes: 1,
      memoryLimitBytes: 768 * 1024 ** 2,
      idleTimeoutMs: 1_000,
    });
    const firstFile = path.join(dir, 'first.txt');
    const secondFile = path.join(dir, 'second.txt');
    await writeFile(firstFile, 'first');
    await writeFile(secondFile, 'second');
    try {
      expect(
        await idling.run('extractText', taskArgs(firstFile, 'first.txt'), { lane: 'test' }),
      ).toMatchObject({ text: 'first' });
      const [first] = idling.pids;
      vi.advanceTimersByTime(1_000);
      const second = idling.run('extractText', taskArgs(secondFile, 'second.txt'), {
        lane: 'test',
      });
      expect(await second).toMatchObject({ text: 'second' });
      expect(idling.pids).not.toContain(first);
    } finally {
      vi.useRealTimers();
      await idling.close();
    }
  });
});
