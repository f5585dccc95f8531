import type { ApiSettings } from '../config.ts';
import type { Caller } from '../http/caller.ts';
import type { Payload } from './body.ts';
import type { MediaChoice } from './negotiate.ts';
import type { Preferences } from './preferences.ts';
import type { ParsedQuery } from './query-types.ts';
import type { ResultRow } from './respond.ts';

/** A REST request after authentication, header checks and query parsing. */
export interface RestRequest {
  method: string;
  /** Table or function name from the path. */
  resource: string;
  query: ParsedQuery;
  caller: Caller;
  prefs: Preferences;
  media: MediaChoice;
  /** The client named the schema (`Accept-Profile`/`Content-Profile`): echo it back. */
  profileNegotiated: boolean;
  payload?: Payload;
  /** The installation's bounds on what one request may ask for. */
  limits: ApiSettings;
}

/** The one statement of a request, and how to turn its result row into the response. */
export interface Prepared {
  sql: string;
  params: unknown[];
  /** Run in a READ ONLY transaction (GET/HEAD, and POST to stable functions). */
  readOnly: boolean;
  /** Builds the response; throwing a RestError rolls the transaction back. */
  respond(row: ResultRow): Response;
  /**
   * For a write: the numbers of rows of the answer (`page`) for which `respond` accepts it (it
   * throws outside them, and only there), so that the database may end the transaction with
   * the statement (`acceptedPages`). Without it the transaction waits for `respond`.
   */
  acceptedPages?: { min: number; max: number };
  /** A table read whose answer PGlite's read cache may keep (`cacheable-read.ts`). */
  cacheable?: boolean;
}

export const PROFILE_HEADER = 'Content-Profile';
