import { describe, expect, it } from 'vitest';
import { TONE_NAMES } from '../../../tailwind.config.js';
import { DEPARTMENTS } from '../../config/departments.ts';
import { OPERATIONS_CATEGORIES } from '../../config/operations-categories.ts';
import type { Tone } from './tone.ts';

describe('the tones of tailwind.config.js', () => {
  it('colour every role, expiry state, document status, department and operations category', () => {
    const named: Tone[] = [
      'role-master_admin',
      'role-admin',
      'role-user',
      'expiry-overdue',
      'expiry-soon',
      'expiry-ok',
      'status-active',
      'status-expiring',
      'status-other',
      'info',
      'success',
      'warning',
      'danger',
      ...DEPARTMENTS.map(({ key }) => `department-${key}` as const),
      ...OPERATIONS_CATEGORIES.map(({ key }) => `category-${key}` as const),
    ];
    expect(named.filter((tone) => !TONE_NAMES.includes(tone))).toEqual([]);
  });
});
