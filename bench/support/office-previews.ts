/**
 * Word and Excel previews under load (issue 25, item 2), a scenario of `bench/isolation.bench.ts`.
 *
 * Organisation A has a 2 MB Word document (3,000 paragraphs and a 1.9 MB picture) and a 5 MB
 * Excel workbook (47,000 rows of two cells of random text, about 11 MiB of XML, within the
 * 16 MiB checked before decoding). First the time to the first preview of each, alone. Then its
 * member asks for their previews, two at a time, over and over, on a server whose preview cache
 * is off (`PREVIEW_CACHE_SIZE=0`), so that every request renders anew in the background
 * processes; meanwhile organisation B reads its documents and a browser fetches `/config.json`,
 * as in the other scenarios, with the same two measures taken idle first. The peak resident
 * memory of the server's whole process tree is sampled from /proc every 100 ms.
 *
 * Targets: `/config.json` p99 < 50 ms; B's read p99 < 1 s on PGlite and within 2 × idle on
 * PostgreSQL; every preview answers 200; the peak stays within the 1.5 GiB budget.
 */
import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { paragraph, picture, wordDocument } from '../../tests/support/office-files.ts';
import { failuresLine, measure, newMember, percentile, type Member } from '../isolation.bench.ts';
import { treeRss } from './hostile-files-phase.ts';
import { startSteward, type StewardProcess } from './steward-process.ts';

const BUDGET_BYTES = 1.5 * 1024 ** 3;
const ASKERS = 2;
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** About 2 MB: 3,000 paragraphs of minutes and a 1.9 MB picture (incompressible bytes). */
function bigWordDocument(): Uint8Array {
  const paragraphs = Array.from({ length: 3000 }, (_, i) =>
    paragraph(
      `Item ${i}: the council discussed the roof, the hall hire and the volunteer rota, ${randomBytes(24).toString('base64')}.`,
    ),
  ).join('');
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    randomBytes(1.9 * 1024 ** 2),
  ]);
  return wordDocument(
    paragraph('Minutes of the year', { style: 'Heading1' }) +
      picture('rIdPlan', 'Plan') +
      paragraphs,
    [{ id: 'rIdPlan', type: 'image', target: 'media/plan.png' }],
    { 'media/plan.png': png },
  );
}

/** About 5 MB: 47,000 rows of two cells of 64 random characters each. */
async function bigWorkbook(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Giving');
  for (let row = 0; row < 47_000; row++) {
    sheet.addRow([randomBytes(48).toString('base64url'), randomBytes(48).toString('base64url')]);
  }
  workbook.addWorksheet('Summary').addRow(['Total', 47_000]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

async function upload(member: Member, name: string, bytes: Uint8Array, type: string) {
  const filePath = `documents/${member.organizationId}/${Date.now()}-${randomBytes(4).toString('hex')}-${name}`;
  const stored = await member.client.storage
    .from('documents')
    .upload(filePath, Buffer.from(bytes), { contentType: type });
  if (stored.error) throw new Error(`upload of ${name}: ${stored.error.message}`);
  const { error } = await member.client.from('documents').insert({
    organization_id: member.organizationId,
    name,
    category: 'Other',
    size: bytes.byteLength,
    file_path: filePath,
    status: 'Active',
  });
  if (error) throw new Error(`insert of ${name}: ${error.message}`);
  return filePath;
}

/** The preview of `filePath` as the app asks for it: a signed link, then its rendering. */
async function previewOnce(
  server: StewardProcess,
  member: Member,
  filePath: string,
  name: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const signed = await member.client.storage.from('documents').createSignedUrl(filePath, 3600);
  if (signed.error) return { status: 0, ms: performance.now() - started };
  const token = new URL(signed.data.signedUrl).searchParams.get('token')!;
  const response = await fetch(
    `${server.url}/preview/v1/office/${encodeURIComponent(name)}?token=${token}`,
  ).catch(() => null);
  await response?.arrayBuffer();
  return { status: response?.status ?? 0, ms: performance.now() - started };
}

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

export async function officePreviewsScenario(
  label: string,
  env: Record<string, string>,
  phaseMs: number,
): Promise<{ lines: string[]; pass: boolean }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-office-previews-'));
  const docx = bigWordDocument();
  const xlsx = await bigWorkbook();
  const server = await startSteward({
    dataDir,
    jwtSecret: randomBytes(32).toString('hex'),
    env: { ...env, PREVIEW_CACHE_SIZE: '0' },
  });
  try {
    const attacker = await newMember(server, 'Office');
    const victim = await newMember(server, 'Reader');
    const files: [string, string][] = [
      [await upload(attacker, 'Minutes.docx', docx, DOCX_TYPE), 'Minutes.docx'],
      [await upload(attacker, 'Giving.xlsx', xlsx, XLSX_TYPE), 'Giving.xlsx'],
    ];
    const { error } = await victim.client.from('documents').insert(
      Array.from({ length: 200 }, (_, i) => ({
        organization_id: victim.organizationId,
        name: `Document ${i}.pdf`,
        category: 'Reports',
        size: 1000,
        file_path: `documents/${victim.organizationId}/${i}.pdf`,
        status: 'Active',
      })),
    );
    if (error) throw new Error(`insert failed: ${error.message}`);

    let sampling = true;
    let peak = 0;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await treeRss(server.child.pid!));
        await after(100);
      }
    })();
    // Time to first preview, each alone (the first also starts a background process).
    const first: { status: number; ms: number }[] = [];
    for (const [filePath, name] of files) {
      first.push(await previewOnce(server, attacker, filePath, name));
    }

    await measure(server, victim, after(2000));
    const idle = await measure(server, victim, after(phaseMs));
    const stop = after(phaseMs);
    let stopped = false;
    void stop.then(() => (stopped = true));
    const renders = new Map<string, { count: number; statuses: Set<number>; ms: number[] }>();
    let next = 0;
    const [busy] = await Promise.all([
      measure(server, victim, stop),
      Promise.all(
        Array.from({ length: ASKERS }, async () => {
          while (!stopped) {
            const [filePath, name] = files[next++ % files.length]!;
            const answer = await previewOnce(server, attacker, filePath, name);
            const entry = renders.get(name) ?? { count: 0, statuses: new Set(), ms: [] };
            entry.count += 1;
            entry.statuses.add(answer.status);
            entry.ms.push(answer.ms);
            renders.set(name, entry);
          }
        }),
      ),
    ]);
    sampling = false;
    await sampler;

    const p = (values: number[]) =>
      `p50 ${fmt(percentile(values, 50))}, p99 ${fmt(percentile(values, 99))} (${values.length} requests)`;
    const readIdleP99 = percentile(idle.read, 99);
    const readBusyP99 = percentile(busy.read, 99);
    const readTarget = label === 'PGlite' ? readBusyP99 < 1000 : readBusyP99 <= 2 * readIdleP99;
    const failed =
      first.some((f) => f.status !== 200) ||
      [...renders.values()].some((r) => [...r.statuses].some((s) => s !== 200));
    const pass =
      percentile(busy.config, 99) < 50 &&
      readTarget &&
      !failed &&
      peak <= BUDGET_BYTES &&
      busy.failures.length === 0;
    const lines = [
      `${label}, Word and Excel previews (a ${(docx.byteLength / 1024 ** 2).toFixed(1)} MB DOCX, a ${(xlsx.byteLength / 1024 ** 2).toFixed(1)} MB XLSX; cache off, every request renders):`,
      ...files.map(
        ([, name], i) =>
          `  time to first preview of ${name}: ${fmt(first[i]!.ms)} (${first[i]!.status})`,
      ),
      `  /config.json, idle:          ${p(idle.config)}`,
      `  /config.json, during renders:  ${p(busy.config)}   (target p99 < 50 ms)`,
      `  other organisation's read, idle:            ${p(idle.read)}`,
      `  other organisation's read, during renders:  ${p(busy.read)}`,
      `  ratio of read p99 during renders / idle: ${(readBusyP99 / readIdleP99).toFixed(2)} ` +
        (label === 'PGlite' ? '(target: p99 < 1 s)' : '(target ≤ 2)'),
      failuresLine(busy.failures),
      `  previews asked (${ASKERS} at a time):`,
      ...[...renders.entries()].map(
        ([name, r]) =>
          `    ${name}: ${r.count} rendered, answers ${[...r.statuses].sort().join('/')}, ${p(r.ms)}`,
      ),
      `  peak resident memory of the server's process tree: ${(peak / 1024 ** 2).toFixed(0)} MiB (budget ${BUDGET_BYTES / 1024 ** 2} MiB)`,
      `  ${pass ? 'target met' : 'TARGET MISSED'}`,
    ];
    return { lines, pass };
  } finally {
    await server.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}
