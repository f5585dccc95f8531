/**
 * Child process of bench/rest-read.bench.ts: a bare `node:http` server answering every request
 * with the bytes in BENCH_BODY_FILE and the content type in BENCH_CONTENT_TYPE: the ceiling the
 * REST read is compared with. Prints `{url}` when it serves; stops on SIGTERM.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const body = await readFile(process.env.BENCH_BODY_FILE ?? '');
const headers = {
  'Content-Type': process.env.BENCH_CONTENT_TYPE ?? 'application/json; charset=utf-8',
  'Content-Length': String(body.length),
};
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}` }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
