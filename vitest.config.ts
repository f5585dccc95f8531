import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './tests/support/longest-first-sequencer.ts';

export default defineConfig({
  plugins: [react()],
  test: {
    // Test files spend much of their time waiting on their servers: two workers keep both
    // cores busy (the default on a 2-core machine would be one).
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          environment: 'jsdom',
          // Files share a worker's module cache (each still starts its own servers and renders
          // into a fresh document): every file importing React, supabase-js and the server anew
          // took half of the CPU time (app 233 s -> 121 s, backend 695 s -> 534 s of CPU).
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
          globalSetup: ['src/testing/global-setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'backend',
          environment: 'node',
          isolate: false, // see the app project
          include: ['tests/**/*.test.ts', 'server/**/*.test.ts', 'supabase/functions/**/*.test.ts'],
          // The cluster test starts processes and a balancer of its own: `npm run test:cluster`.
          exclude: ['tests/cluster/**'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Issue 26: two API processes and a worker behind haproxy, on PostgreSQL and S3.
          name: 'cluster',
          environment: 'node',
          include: ['tests/cluster/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
