import { buildIfStale } from './build-if-stale.ts';

// `npm start`: build the SPA if needed, then run the embedded backend that serves it.
await buildIfStale();
await import('../server/index.ts');
