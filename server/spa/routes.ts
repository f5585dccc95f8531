import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AppContext } from '../context.ts';
import { ONLY_NAMED_HEADERS } from '../http/middleware.ts';
import { chooseEncoding, compressedFile } from './compression.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The app's pages (Hono's `secureHeaders`): scripts only from this origin (no inline script),
 * data only from this origin, documents previewed in frames from this origin only (Steward
 * renders Word and Excel itself: no file is sent to Office Online); never framed; no camera,
 * microphone or location.
 */
function pageSecurityHeaders(): MiddlewareHandler {
  return secureHeaders({
    ...ONLY_NAMED_HEADERS,
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      frameSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xContentTypeOptions: true,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}

function pageHeaders(contentType: string, immutable: boolean): Record<string, string> {
  return {
    'Content-Type': contentType,
    // Hashed assets never change; everything else is revalidated so a new build shows at once.
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
}

/** Serves the built SPA from `dist/` with history-API fallback to `index.html`. */
export function createSpaApp(ctx: AppContext): Hono {
  const root = ctx.config.distDir;
  const app = new Hono();
  app.use('*', pageSecurityHeaders());

  app.on(['GET', 'HEAD'], '*', async (c) => {
    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path);
    } catch {
      return c.text('Bad Request', 400);
    }
    const resolved = path.resolve(root, '.' + path.posix.normalize('/' + relative));
    const inside = resolved === root || resolved.startsWith(root + path.sep);
    let file = resolved;
    let info = inside ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) {
      // Unknown paths with a file extension are missing assets, not app routes.
      if (path.extname(relative) && !relative.endsWith('.html')) {
        return c.text('Not Found', 404, pageHeaders('text/plain; charset=utf-8', false));
      }
      file = path.join(root, 'index.html');
      info = await stat(file).catch(() => null);
      if (!info?.isFile()) {
        return c.text(
          'The app has not been built yet. Run `npm start`, which builds it first.',
          503,
          pageHeaders('text/plain; charset=utf-8', false),
        );
      }
    }
    const immutable = file.includes(`${path.sep}assets${path.sep}`);
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const encoding = chooseEncoding(c.req.header('accept-encoding'), type);
    if (encoding) {
      const bytes = await compressedFile(file, `${info.size}:${info.mtimeMs}`, encoding);
      const headers = {
        ...pageHeaders(type, immutable),
        'Content-Encoding': encoding,
        'Content-Length': String(bytes.length),
        Vary: 'Accept-Encoding',
      };
      return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(bytes), { headers });
    }
    const headers = {
      ...pageHeaders(type, immutable),
      'Content-Length': String(info.size),
      Vary: 'Accept-Encoding',
    };
    if (c.req.method === 'HEAD') return new Response(null, { headers });
    const body = Readable.toWeb(createReadStream(file)) as ReadableStream;
    return new Response(body, { headers });
  });
  return app;
}
