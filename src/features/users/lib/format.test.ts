import { describe, expect, it } from 'vitest';
import { errorText, formatDate, inviterName } from './format.ts';

describe('formatDate', () => {
  it('uses MMM dd, yyyy', () => {
    expect(formatDate('2026-03-05T12:00:00')).toBe('Mar 05, 2026');
    expect(formatDate('2025-12-31T09:30:00')).toBe('Dec 31, 2025');
  });
});

describe('inviterName', () => {
  it('falls back from full name to e-mail to Unknown', () => {
    expect(inviterName({ full_name: 'Ruth Miller', email: 'ruth@example.test' })).toBe(
      'Ruth Miller',
    );
    expect(inviterName({ full_name: null, email: 'ruth@example.test' })).toBe('ruth@example.test');
    expect(inviterName({ full_name: '  ', email: 'ruth@example.test' })).toBe('ruth@example.test');
    expect(inviterName({ full_name: null, email: null })).toBe('Unknown');
    expect(inviterName(null)).toBe('Unknown');
  });
});

describe('errorText', () => {
  it('is the message, or Unknown error without one', () => {
    expect(errorText(new Error('No organization found'))).toBe('No organization found');
    expect(errorText(new Error(''))).toBe('Unknown error');
    expect(errorText('boom')).toBe('Unknown error');
  });
});
