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
          include: ['tests/**/*.test.ts', 'server/**/*.test.ts', 'supabase/functions/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
