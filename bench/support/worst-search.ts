/**
 * The worst search (issue 22, finding R1), a scenario of `bench/isolation.bench.ts`.
 *
 * Organisation A has a library of long texts: 350 text files of about 100 KB, uploaded through
 * Storage and read by the server's own extraction jobs. Its member sends, four at a time, the
 * worst searches a member can build: a common word, a one-letter prefix, a phrase of common
 * words, excluded words alone and many words, each asking for a page of 1,000 (served as 100),
 * one sorted by name far into the list. Meanwhile organisation B reads its documents and a
 * browser fetches `/config.json`, as in the other scenario; the same two measures with the
 * server idle first. Then each worst search once on its own, for how long one takes.
 *
 * Targets: `/config.json` p99 < 50 ms; B's read p99 < 1 s on PGlite and within 2 × idle on
 * PostgreSQL; every worst search answers 200, and each on its own within 1 s.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { measure, newMember, percentile, type Member } from '../isolation.bench.ts';
import { startSteward, type StewardProcess } from './steward-process.ts';

const DOCUMENTS = Number(process.env.BENCH_WORST_SEARCH_DOCUMENTS ?? 350);
const TEXT_LENGTH = 100_000;
const ATTACKERS = 4;
const SEARCH_TARGET_MS = 1000;

const VOCABULARY = (
  'the of and to in parish council roof repair budget meeting minutes safeguarding policy ' +
  'volunteer rota hall hire organ choir treasurer report annual review lease contract'
).split(' ');

/** About 100 KB of prose: "parish insurance" in every sentence, and words of its own. */
function longText(seed: number): string {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  const sentences: string[] = [];
  let size = 0;
  while (size < TEXT_LENGTH) {
    const words = Array.from({ length: 12 }, () =>
      next() % 3 === 0
        ? `w${(next() % 50_000).toString(36)}`
        : VOCABULARY[next() % VOCABULARY.length]!,
    );
    words.splice(next() % 12, 0, 'parish insurance');
    const sentence = `${words.join(' ')}.`;
    sentences.push(sentence);
    size += sentence.length + 1;
  }
  return sentences.join(' ');
}

/** Uploads the library through Storage, as the app does, four files at a time. */
async function addLongTexts(member: Member, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const i = next++;
        const filePath = `documents/${member.organizationId}/minutes-${i}.txt`;
        const bytes = Buffer.from(longText(i + 1));
        const upload = await member.client.storage
          .from('documents')
          .upload(filePath, bytes, { contentType: 'text/plain;charset=UTF-8' });
        if (upload.error) throw new Error(`upload failed: ${upload.error.message}`);
        const { error } = await member.client.from('documents').insert({
          organization_id: member.organizationId,
          name: `Minutes ${String(i).padStart(3, '0')}.txt`,
          category: 'Reports',
          size: bytes.byteLength,
          file_path: filePath,
          status: 'Active',
        });
        if (error) throw new Error(`insert failed: ${error.message}`);
      }
    }),
  );
}

/** Waits until the server's extraction jobs have read every text. */
async function textsRead(member: Member, count: number, timeoutMs = 15 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { count: ready, error } = await member.client
      .from('document_texts')
      .select('document_id', { count: 'exact', head: true })
      .eq('state', 'ready');
    if (error) throw new Error(`reading the text states failed: ${error.message}`);
    if (ready === count) return;
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${count} texts were read`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The worst searches a member can build over such a library. */
const WORST_SEARCHES: [string, Record<string, unknown>][] = [
  ['a common word', { search: 'insurance', page_size: 1000 }],
  ['one letter typed', { search: 'i', page_size: 1000 }],
  [
    'by name, far into the list',
    { search: 'insurance', page_size: 1000, sort_by: 'name', page_offset: 250 },
  ],
  ['a phrase of common words', { search: '"parish insurance"', page_size: 1000 }],
  ['excluded words alone', { search: '-wheelchair -ramp', page_size: 1000 }],
  [
    'forty words or one another',
    {
      search: Array.from({ length: 40 }, (_, i) => `w${(i * 1249).toString(36)}`).join(' or '),
      page_size: 1000,
    },
  ],
];

async function searchOnce(
  server: StewardProcess,
  member: Member,
  args: Record<string, unknown>,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/rest/v1/rpc/search_documents`, {
    method: 'POST',
    headers: {
      apikey: server.keys.anonKey,
      Authorization: `Bearer ${member.token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(args),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

interface SearchReport {
  count: number;
  statuses: Set<number>;
  maxMs: number;
}

async function attack(
  server: StewardProcess,
  attacker: Member,
  stop: Promise<void>,
): Promise<Map<string, SearchReport>> {
  const byName = new Map<string, SearchReport>();
  let next = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  await Promise.all(
    Array.from({ length: ATTACKERS }, async () => {
      while (!stopped) {
        const [name, args] = WORST_SEARCHES[next++ % WORST_SEARCHES.length]!;
        const { status, ms } = await searchOnce(server, attacker, args).catch(() => ({
          status: 0,
          ms: 0,
        }));
        const entry = byName.get(name) ?? { count: 0, statuses: new Set<number>(), maxMs: 0 };
        entry.count += 1;
        entry.statuses.add(status);
        entry.maxMs = Math.max(entry.maxMs, ms);
        byName.set(name, entry);
      }
    }),
  );
  return byName;
}

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

export async function worstSearchScenario(
  label: string,
  env: Record<string, string>,
  phaseMs: number,
): Promise<{ lines: string[]; pass: boolean }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-worst-search-'));
  const server = await startSteward({ dataDir, jwtSecret: randomBytes(32).toString('hex'), env });
  try {
    const attacker = await newMember(server, 'Library');
    const victim = await newMember(server, 'Reader');
    const started = performance.now();
    await addLongTexts(attacker, DOCUMENTS);
    await textsRead(attacker, DOCUMENTS);
    const seededS = (performance.now() - started) / 1000;
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

    // Warm-up, then idle, then during the searches; then each search on its own.
    await measure(server, victim, after(2000));
    const idle = await measure(server, victim, after(phaseMs));
    const stop = after(phaseMs);
    const [busy, report] = await Promise.all([
      measure(server, victim, stop),
      attack(server, attacker, stop),
    ]);
    const alone = new Map<string, { status: number; ms: number }>();
    for (const [name, args] of WORST_SEARCHES) {
      let slowest = { status: 0, ms: 0 };
      for (let i = 0; i < 3; i++) {
        const answer = await searchOnce(server, attacker, args);
        if (answer.ms >= slowest.ms || answer.status !== 200) slowest = answer;
      }
      alone.set(name, slowest);
    }

    const p = (values: number[]) =>
      `p50 ${fmt(percentile(values, 50))}, p99 ${fmt(percentile(values, 99))} (${values.length} requests)`;
    const readIdleP99 = percentile(idle.read, 99);
    const readBusyP99 = percentile(busy.read, 99);
    const readTarget = label === 'PGlite' ? readBusyP99 < 1000 : readBusyP99 <= 2 * readIdleP99;
    const failed = [...report.values()].some((r) => [...r.statuses].some((s) => s !== 200));
    const slow = [...alone.entries()].filter(
      ([, a]) => a.status !== 200 || a.ms >= SEARCH_TARGET_MS,
    );
    const pass = percentile(busy.config, 99) < 50 && readTarget && !failed && slow.length === 0;
    const lines = [
      `${label}, the worst search (${DOCUMENTS} texts of ${TEXT_LENGTH / 1000} KB, uploaded and read in ${seededS.toFixed(0)} s):`,
      `  /config.json, idle:          ${p(idle.config)}`,
      `  /config.json, under attack:  ${p(busy.config)}   (target p99 < 50 ms)`,
      `  other organisation's read, idle:          ${p(idle.read)}`,
      `  other organisation's read, under attack:  ${p(busy.read)}`,
      `  ratio of read p99 under attack / idle: ${(readBusyP99 / readIdleP99).toFixed(2)} ` +
        (label === 'PGlite' ? '(target: p99 < 1 s)' : '(target ≤ 2)'),
      `  worst searches (${ATTACKERS} at a time; then each alone, slowest of 3, target < ${SEARCH_TARGET_MS} ms):`,
      ...WORST_SEARCHES.map(([name]) => {
        const r = report.get(name);
        const a = alone.get(name)!;
        return (
          `    ${name}: ${r?.count ?? 0} sent, answers ${[...(r?.statuses ?? [])].sort().join('/')}, ` +
          `longest ${fmt(r?.maxMs ?? 0)}; alone ${fmt(a.ms)} (${a.status})`
        );
      }),
      `  ${pass ? 'target met' : 'TARGET MISSED'}`,
    ];
    return { lines, pass };
  } finally {
    await server.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}
