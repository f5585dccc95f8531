/**
 * The floor for bench/cold-start.bench.ts: a tsx process that answers `/config.json` from a
 * bare `node:http` server on PORT, so the cold-start figures can be read as a multiple of what
 * starting Node with tsx costs at all.
 */
import http from 'node:http';

const body = JSON.stringify({ supabaseUrl: 'http://localhost', supabaseAnonKey: 'anon' });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
