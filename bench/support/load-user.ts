import type { Row } from './load-common.ts';
import type { WriteLedger } from './load-ledger.ts';
import type { LoadMetrics, RequestKind } from './load-metrics.ts';
import { list, preview, probe, search, stats } from './load-reads.ts';
import type { LoadOrganization, LoadUser } from './load-world.ts';
import { editContent, editProperties, invite, upload } from './load-writes.ts';

export interface LoadContext {
  metrics: LoadMetrics;
  ledger: WriteLedger;
  organizations: LoadOrganization[];
  /** The users who act. */
  users: LoadUser[];
  /** Users stop starting new actions once this is set (or the deadline passes). */
  stop: { now: boolean };
  deadline: number;
  runId: string;
}

type Action = (user: VirtualUser) => Promise<void>;

/** How often each action is chosen, in percent: reading dominates, as in a church office. */
const FULL_MIX: [Action, number][] = [
  [list, 25],
  [search, 15],
  [preview, 15],
  [stats, 10],
  [upload, 12],
  [editProperties, 8],
  [editContent, 7],
  [invite, 5],
  [probe, 3],
];

/**
 * `LOAD_ONLY=upload,list` (names of the actions above) runs only those, at their relative
 * weights: the server's CPU per request of one kind of work, measured apart from the others.
 */
const only = process.env.LOAD_ONLY?.split(',').map((name) => name.trim());
const MIX = only ? FULL_MIX.filter(([action]) => only.includes(action.name)) : FULL_MIX;
if (MIX.length === 0) throw new Error(`LOAD_ONLY names no action: ${process.env.LOAD_ONLY}`);
const totalWeight = MIX.reduce((sum, [, weight]) => sum + weight, 0);

function pickAction(): Action {
  let roll = Math.random() * totalWeight;
  for (const [action, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return action;
  }
  return MIX[0]![0];
}

interface Answer<T> {
  data: T | null;
  error: { message: string } | null;
}

/**
 * One virtual user: picks an action, performs it with its own supabase-js client, and checks
 * what came back. Actions are in load-reads.ts and load-writes.ts.
 */
export class VirtualUser {
  /** Documents of the organisation this user has seen in a listing (for previews). */
  known: { id: string; file_path: string }[] = [];
  private sequence = 0;

  constructor(
    readonly user: LoadUser,
    readonly ctx: LoadContext,
  ) {}

  /** A number unique to this user, for names. */
  next(): number {
    return ++this.sequence;
  }

  /** Times one request; records it as ok or failed. Null when it failed. */
  async request<T>(
    kind: RequestKind,
    send: () => PromiseLike<Answer<T>>,
  ): Promise<Answer<T> | null> {
    const started = performance.now();
    try {
      const answer = await send();
      if (answer.error) {
        this.ctx.metrics.failed(kind, answer.error.message);
        return null;
      }
      this.ctx.metrics.ok(kind, performance.now() - started);
      return answer;
    } catch (error) {
      this.ctx.metrics.failed(kind, (error as Error).message);
      return null;
    }
  }

  /** Every row must be of the caller's organisation. */
  checkRows(kind: string, rows: Row[]): void {
    for (const row of rows) {
      if (row.organization_id !== this.user.organizationId) {
        this.ctx.metrics.crossOrg(
          `${kind}: ${this.user.email} saw document ${String(row.id)} of ${String(row.organization_id)}`,
        );
      }
    }
  }

  remember(rows: Row[]): void {
    const seen = rows.map((row) => ({ id: row.id as string, file_path: row.file_path as string }));
    this.known = [...seen, ...this.known].slice(0, 200);
  }

  async run(): Promise<void> {
    while (!this.ctx.stop.now && Date.now() < this.ctx.deadline) {
      let action = pickAction();
      // Users cannot invite; edits need a document of one's own; a preview needs a listing.
      if (action === invite && this.user.role === 'user') action = list;
      if ((action === editProperties || action === editContent) && this.user.own.length === 0) {
        action = upload;
      }
      if (action === preview && this.known.length === 0) action = list;
      await action(this);
    }
  }
}

/** Runs every user of `ctx.users` until the deadline or `stop`. */
export function runUsers(ctx: LoadContext): Promise<void[]> {
  return Promise.all(ctx.users.map((user) => new VirtualUser(user, ctx).run()));
}
