import { readConfig } from './config.ts';
import { startServer } from './server.ts';
import { siteUrlWarning } from './site-url.ts';

/** Entry point of the embedded backend: `tsx server/index.ts`. */

// A promise rejected outside any request (e.g. in an edge function's background work) must not
// take the whole server down with it: log it and keep serving.
process.on('unhandledRejection', (reason) => {
  console.error('Unhandled promise rejection:', reason);
});

const config = readConfig();
const started = performance.now();
const server = await startServer({ config });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const role = config.role === 'all' ? '' : `, role ${config.role}`;
console.log(
  `Steward is running at ${server.url} (ready in ${seconds}s, data in ${config.dataDir}${role})`,
);
const warning = siteUrlWarning(config, server.url);
if (warning) console.warn(`Warning: ${warning}`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
