/** One kind of request of the load test (each is one HTTP request). */
export type RequestKind =
  | 'list'
  | 'search'
  | 'upload'
  | 'insert'
  | 'sign'
  | 'fetch-signed'
  | 'update-properties'
  | 'update-content'
  | 'read-edited'
  | 'invite'
  | 'stats'
  | 'probe-rows'
  | 'probe-file';

interface KindRecord {
  latencies: number[];
  errors: number;
  /** Failures after the server was killed: expected, reported apart from errors. */
  failedAfterKill: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Latencies, errors and cross-organisation sightings, per request kind. */
export class LoadMetrics {
  private readonly kinds = new Map<RequestKind, KindRecord>();
  /** Rows or files of another organisation that a user received (must stay empty). */
  readonly crossOrganization: string[] = [];
  readonly errorSamples: string[] = [];
  /** `performance.now()` when the server was killed, if it was. */
  killedAt: number | null = null;
  startedAt = performance.now();
  endedAt = 0;

  private of(kind: RequestKind): KindRecord {
    let record = this.kinds.get(kind);
    if (!record) {
      record = { latencies: [], errors: 0, failedAfterKill: 0 };
      this.kinds.set(kind, record);
    }
    return record;
  }

  ok(kind: RequestKind, ms: number): void {
    this.of(kind).latencies.push(ms);
  }

  /** A failed request: an error, unless it failed after the server was killed. */
  failed(kind: RequestKind, message: string): void {
    const record = this.of(kind);
    if (this.killedAt !== null && performance.now() >= this.killedAt) {
      // In flight at the kill, or sent after it: the server was gone.
      record.failedAfterKill++;
      return;
    }
    record.errors++;
    if (this.errorSamples.length < 20) this.errorSamples.push(`${kind}: ${message}`);
  }

  crossOrg(detail: string): void {
    if (this.crossOrganization.length < 1000) this.crossOrganization.push(detail);
  }

  get totals() {
    let requests = 0;
    let errors = 0;
    let failedAfterKill = 0;
    for (const record of this.kinds.values()) {
      requests += record.latencies.length;
      errors += record.errors;
      failedAfterKill += record.failedAfterKill;
    }
    return { requests, errors, failedAfterKill };
  }

  /** Seconds from start to end (or the kill). */
  get seconds(): number {
    return ((this.killedAt ?? this.endedAt) - this.startedAt) / 1000;
  }

  /** p50 of one kind, in ms (NaN when none succeeded). */
  p50(kind: RequestKind): number {
    return percentile(
      [...(this.kinds.get(kind)?.latencies ?? [])].sort((a, b) => a - b),
      50,
    );
  }

  /**
   * A table: kind, count, errors, p50, p99, max (ms); with `alone`, the p50 of the same kind
   * when one user acted by itself, and the ratio (what the concurrency costs).
   */
  table(alone?: LoadMetrics): string[] {
    const head = `  ${'kind'.padEnd(18)} ${'ok'.padStart(6)} ${'errors'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`;
    const lines = [alone ? `${head} ${'alone p50'.padStart(9)} ${'ratio'.padStart(6)}` : head];
    const row = (kind: string, latencies: number[], errors: number, base: number | null) => {
      const sorted = [...latencies].sort((a, b) => a - b);
      const p50 = percentile(sorted, 50);
      const cells = `  ${kind.padEnd(18)} ${String(sorted.length).padStart(6)} ${String(errors).padStart(6)} ${p50.toFixed(1).padStart(8)} ${percentile(sorted, 99).toFixed(1).padStart(8)} ${(sorted.at(-1) ?? NaN).toFixed(1).padStart(8)}`;
      if (base === null) return cells;
      return `${cells} ${base.toFixed(1).padStart(9)} ${(p50 / base).toFixed(1).padStart(5)}×`;
    };
    const kinds = [...this.kinds.entries()].sort((a, b) => a[0].localeCompare(b[0]));
    for (const [kind, record] of kinds) {
      const killed = record.failedAfterKill
        ? ` (+${record.failedAfterKill} cut off by the kill)`
        : '';
      lines.push(
        row(kind, record.latencies, record.errors, alone ? alone.p50(kind) : null) + killed,
      );
    }
    const all = [...this.kinds.values()].flatMap((record) => record.latencies);
    const allAlone = alone
      ? percentile(
          [...alone.kinds.values()].flatMap((r) => r.latencies).sort((a, b) => a - b),
          50,
        )
      : null;
    lines.push(row('all', all, this.totals.errors, allAlone));
    return lines;
  }

  /** Per-kind figures for a JSON result. */
  summary(): Record<string, { ok: number; errors: number; p50: number; p99: number }> {
    const out: Record<string, { ok: number; errors: number; p50: number; p99: number }> = {};
    for (const [kind, record] of this.kinds) {
      const sorted = [...record.latencies].sort((a, b) => a - b);
      out[kind] = {
        ok: sorted.length,
        errors: record.errors,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
      };
    }
    return out;
  }
}
