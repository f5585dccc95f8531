import { describe, expect, it } from 'vitest';
import { inviterName } from './inviter-name.ts';

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
