import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setSupabaseClient } from '../lib/supabase.ts';

afterEach(() => {
  cleanup();
  setSupabaseClient(null);
  window.localStorage.clear();
});
