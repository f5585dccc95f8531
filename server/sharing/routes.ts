import type { Context } from 'hono';
import { Hono } from 'hono';
import { setTimeout as sleep } from 'node:timers/promises';
import { guessBudgets } from '../auth/guess-limiter.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { requestRateLimiter } from '../auth/request-rate-limit.ts';
import { limiterAddress } from '../auth/request-info.ts';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { errorFormat } from '../http/api-error.ts';
import type { Caller } from '../http/caller.ts';
import { LinkError, linkErrorFormat, linkErrors } from '../links/errors.ts';
import { optionalString, readJsonBody, tokenParam } from '../links/requests.ts';
import { officePreviewsOf } from '../previews/office-previews.ts';
import { previewPage } from '../previews/preview-page.ts';
import { findObject } from '../storage/queries.ts';
import { preparedStorage } from '../storage/routes.ts';
import type { Queryable } from '../db/database.ts';
import { serveObject } from '../storage/serve.ts';
import { AccessGrants } from './access-grants.ts';

/** A link that works, as `private.share_link_to_open` finds it. */
interface OpenLink {
  link_id: string;
  document_name: string;
  file_path: string;
  size: string;
  password_hash: string | null;
  expires_ms: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** As a sign-in password: GoTrue's minimum, and what bcrypt reads (72 bytes). */
const MIN_PASSWORD_LENGTH = 6;
const MAX_PASSWORD_BYTES = 72;
/** Links one member may ask for in a minute, before any password is hashed for them. */
const CREATIONS_PER_MINUTE = 30;

const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The signed-in member calling, or the refusal. */
function signedInCaller(c: Context<ApiEnv>): Caller & { claims: { sub: string } } {
  const result = c.var.credentials.caller;
  if (!result.ok || result.caller.role !== 'authenticated') throw linkErrors.notSignedIn();
  const { sub } = result.caller.claims;
  if (typeof sub !== 'string' || !UUID.test(sub)) throw linkErrors.notSignedIn();
  return result.caller as Caller & { claims: { sub: string } };
}

/**
 * Share links (`/share/v1`, supabase/schemas/21_share_links.sql): a member makes one
 * (`POST /links`, signed in); anyone with its address opens it (`GET /s/{token}`), gives its
 * password when it has one (`POST /s/{token}/unlock`), and previews or downloads its file with
 * the grant the page got (`GET /s/{token}/file[/{name}]?access=…[&download]`), a Word or Excel file as
 * Steward renders it (`GET /s/{token}/preview?access=…`, as members see it). The database decides
 * whether a link works on every request; the server hashes and checks passwords in its CPU pool,
 * slows guessing down per link and address as the sign-in does, and bounds the requests of each
 * client address.
 */
export function createSharingApp(ctx: AppContext): Hono<ApiEnv> {
  const { cpu, config } = ctx;
  const { services } = preparedStorage(ctx);
  const grants = new AccessGrants(ctx.keys.jwtSecret);
  const maxKeys = config.auth.limiterMaxKeys;
  const openings = requestRateLimiter(ctx.db, {
    name: 'share.openings',
    limit: config.sharing.openingsPerMinute,
    windowMs: 60_000,
    maxKeys,
  });
  const creations = requestRateLimiter(ctx.db, {
    name: 'share.creations',
    limit: CREATIONS_PER_MINUTE,
    windowMs: 60_000,
    maxKeys,
  });
  const guesses = guessBudgets(ctx.db, 'share', { ...config.auth.guesses, maxKeys });
  const previews = officePreviewsOf(ctx);

  const countRequest = async (c: Context<ApiEnv>) => {
    const retryAfter = await openings.take(c.get('db'), limiterAddress(c));
    if (retryAfter > 0) throw linkErrors.rateLimited(retryAfter);
  };

  const openLink = async (db: Queryable, token: string): Promise<OpenLink | null> => {
    const { rows } = await db.query<OpenLink>(
      `select link_id, document_name, file_path, size::text, password_hash,
              (extract(epoch from expires_at) * 1000)::bigint::text as expires_ms
       from private.share_link_to_open($1)`,
      [token],
    );
    return rows[0] ?? null;
  };

  /** The page of an opened link: recorded in the document's history, with a grant for its file. */
  const opened = async (db: Queryable, link: OpenLink) => {
    await db.query('select private.record_share_link_use($1, false)', [link.link_id]);
    return {
      password_required: false,
      name: link.document_name,
      size: Number(link.size),
      expires_at: new Date(Number(link.expires_ms)).toISOString(),
      access: grants.issue(link.link_id, Number(link.expires_ms)),
    };
  };

  const app = new Hono<ApiEnv>();
  app.use('*', errorFormat(linkErrorFormat));

  app.post('/links', async (c) => {
    const db = c.get('db');
    const caller = signedInCaller(c);
    const retryAfter = await creations.take(c.get('db'), caller.claims.sub);
    if (retryAfter > 0) throw linkErrors.rateLimited(retryAfter);
    const body = await readJsonBody(c);
    const documentId = optionalString(body, 'document_id') ?? '';
    if (!UUID.test(documentId)) throw linkErrors.invalid('Choose a document to share');
    const expiresText = optionalString(body, 'expires_at');
    const expiresAt = expiresText === undefined ? null : new Date(expiresText);
    if (expiresAt && Number.isNaN(expiresAt.getTime())) {
      throw linkErrors.invalid('Choose when the link expires');
    }
    const password = optionalString(body, 'password') ?? '';
    if (password !== '' && [...password].length < MIN_PASSWORD_LENGTH) {
      throw linkErrors.invalid(
        `The password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
      );
    }
    if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
      throw linkErrors.invalid('The password is too long');
    }
    const passwordHash =
      password === ''
        ? null
        : await hashPassword(cpu, c.get('scope').lane, password, config.auth.bcryptCost);
    const link = await db.transaction(async (tx) => {
      // As the caller: the function reads who they are (and their session's assurance) from
      // the claims, as every rpc does.
      await tx.query("select set_config('request.jwt.claims', $1, true)", [
        JSON.stringify(caller.claims),
      ]);
      const { rows } = await tx.query<{ id: string; token: string; expires_at: string }>(
        `select link_id as id, token, ${iso('link_expires_at')} as expires_at
         from private.create_share_link($1, $2, $3, $4)`,
        [
          documentId,
          expiresAt?.toISOString() ?? null,
          optionalString(body, 'label') ?? null,
          passwordHash,
        ],
      );
      return rows[0]!;
    });
    return c.json(link, 201);
  });

  app.get('/s/:token', async (c) => {
    const db = c.get('db');
    await countRequest(c);
    const link = await openLink(db, tokenParam(c));
    if (!link) throw linkErrors.notFound();
    // Nothing of the document before its password: not even its name.
    if (link.password_hash !== null) return c.json({ password_required: true });
    return c.json(await opened(db, link));
  });

  app.post('/s/:token/unlock', async (c) => {
    const db = c.get('db');
    await countRequest(c);
    const body = await readJsonBody(c);
    const password = optionalString(body, 'password') ?? '';
    const link = await openLink(db, tokenParam(c));
    if (!link) throw linkErrors.notFound();
    if (link.password_hash === null) return c.json(await opened(db, link));
    const decision = await guesses.begin(db, `share-link:${link.link_id}`, limiterAddress(c));
    if (!decision.allowed) {
      throw linkErrors.rateLimited(
        decision.retryAfterSeconds,
        'Too many wrong passwords. Please wait before trying again.',
      );
    }
    const { attempt } = decision;
    if (attempt.waitMs > 0) await sleep(attempt.waitMs);
    let matches: boolean;
    try {
      matches = await verifyPassword(
        cpu,
        c.get('scope').lane,
        password.slice(0, MAX_PASSWORD_BYTES * 4),
        link.password_hash,
      );
    } catch (error) {
      // The server's failure (a busy pool) is not a guess.
      await attempt.abandoned();
      throw error;
    }
    if (!matches) throw linkErrors.wrongPassword();
    await attempt.succeeded();
    return c.json(await opened(db, link));
  });

  // `/file/{name}`: the same, at an address whose last segment is the document's name, which
  // the browser's PDF viewer shows as its title.
  const file = async (c: Context<ApiEnv>) => {
    const db = c.get('db');
    await countRequest(c);
    const link = await openLink(db, tokenParam(c));
    if (!link) throw linkErrors.notFound();
    if (!grants.verify(c.req.query('access'), link.link_id)) throw linkErrors.accessExpired();
    const object = await findObject(db, 'documents', link.file_path);
    if (!object) throw linkErrors.notFound();
    const download = c.req.query('download') !== undefined;
    if (download) await db.query('select private.record_share_link_use($1, true)', [link.link_id]);
    return serveObject(services.store, object, {
      method: c.req.method,
      requestHeaders: c.req.raw.headers,
      download: download ? link.document_name : undefined,
      filename: link.document_name,
    });
  };
  app.get('/s/:token/file', file);
  app.get('/s/:token/file/:name', file);

  // The rendering takes the turn of the link's organisation, as a member's would.
  app.get('/s/:token/preview', async (c) => {
    const db = c.get('db');
    await countRequest(c);
    const link = await openLink(db, tokenParam(c));
    if (!link) throw linkErrors.notFound();
    if (!grants.verify(c.req.query('access'), link.link_id)) throw linkErrors.accessExpired();
    const object = await findObject(db, 'documents', link.file_path);
    const { rows } = await db.query<{ organization_id: string }>(
      'select organization_id::text from public.documents where file_path = $1',
      [link.file_path],
    );
    if (!object?.version || !rows[0]) throw linkErrors.notFound();
    const preview = await previews.preview({
      version: object.version,
      name: link.document_name,
      mimeType: object.metadata?.mimetype ?? '',
      organizationId: rows[0].organization_id,
    });
    if (preview.state === 'unavailable') {
      throw new LinkError(422, 'preview_unavailable', preview.reason);
    }
    return previewPage(link.document_name, preview.html);
  });

  app.all('*', () => {
    throw linkErrors.notFound('Not found');
  });
  return app;
}
