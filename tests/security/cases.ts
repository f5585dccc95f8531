/**
 * The vocabulary of the security matrix: who a rule lets through, what a case expects, and how
 * an observed result is recorded. A case always checks the effect through the service role,
 * never only the answer the actor got.
 */
import type { Standing } from './actors.ts';

/** `allowed`, `denied`, or the exact error text an rpc function must raise. */
export type Outcome = 'allowed' | 'denied' | `error: ${string}`;

export interface Case {
  /** `table documents`, `rpc invite_user`, `storage documents`, `attack`… */
  group: string;
  /** `A.user updates documents of B` */
  name: string;
  expected: Outcome;
  /** Performs the action, checks its effect, and reports what happened. */
  run(): Promise<Outcome>;
}

/** Who a rule admits, by their standing in the organisation the data belongs to. */
export type Rule = 'nobody' | 'member' | 'admin' | 'master_admin';

const RANK: Record<Standing, number> = {
  anonymous: 0,
  outsider: 0,
  deactivated: 0,
  user: 1,
  admin: 2,
  master_admin: 3,
};
const NEEDED: Record<Rule, number> = { nobody: Infinity, member: 1, admin: 2, master_admin: 3 };

export function admits(rule: Rule, who: Standing): boolean {
  return RANK[who] >= NEEDED[rule];
}

export const allowedIf = (condition: boolean): Outcome => (condition ? 'allowed' : 'denied');

/** A call that failed where the effect shows it should not have (or the reverse). */
export class InconsistentResult extends Error {}

/**
 * The outcome of a write judged by its effect: `allowed` when the change is there, `denied` when
 * it is not. A change that happened although the API answered with an error is reported as such.
 */
export function judgeWrite(error: { message: string } | null, changed: boolean): Outcome {
  if (changed && error) return `error: changed despite "${error.message}"`;
  return changed ? 'allowed' : 'denied';
}
