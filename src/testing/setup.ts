import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setSupabaseClient } from '../lib/supabase.ts';
import { memoizeComputedStyle, printDomOnlyWhenThrownToTheTest } from './dom-costs.ts';

// Screens here load lazily and talk to a real backend on a shared 2-core machine: Testing
// Library's 1-second default for findBy/waitFor is too short for that.
configure({ asyncUtilTimeout: 10_000 });

// What every query and failed retry cost, cut without changing what they find or print
// (dom-costs.ts).
memoizeComputedStyle(document);
printDomOnlyWhenThrownToTheTest();

// jsdom lays nothing out, so it has no ResizeObserver; menus anchored to their button (Headless
// UI's Menu, through Floating UI) watch their button's size with one. Nothing is ever resized
// here, so an observer that never reports is what jsdom would give.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  cleanup();
  setSupabaseClient(null);
  window.localStorage.clear();
});
