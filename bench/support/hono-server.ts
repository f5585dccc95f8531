/**
 * Child process of bench/rest-read.bench.ts: the same bytes as bare-server.ts, but through what
 * every API request of the embedded backend goes through before reaching a service: Hono on
 * @hono/node-server with the API middleware (CORS, security headers). Its throughput is the
 * ceiling any /rest/v1 route can reach, database aside.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import {
  apiCors,
  apiNoStore,
  apiSecurityHeaders,
  requestLog,
} from '../../server/http/middleware.ts';

const body = await readFile(process.env.BENCH_BODY_FILE ?? '');
const contentType = process.env.BENCH_CONTENT_TYPE ?? 'application/json; charset=utf-8';
const app = new Hono();
app.use('*', requestLog(false));
const api = new Hono();
api.use('*', apiCors(), apiSecurityHeaders(), apiNoStore());
api.get('*', (c) => c.body(body, 200, { 'Content-Type': contentType }));
app.route('/', api);
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}` }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
