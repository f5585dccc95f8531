import { describe, expect, it } from 'vitest';
import { EMAIL_LIMIT_REACHED, errorMessage } from './errors.ts';

describe('errorMessage', () => {
  it('reads the message of an Error and of an error object from supabase-js', () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage({ code: '42501', message: 'permission denied' })).toBe('permission denied');
    expect(errorMessage('offline')).toBe('offline');
  });

  it('falls back to Unknown error, or the given text, when there is no message', () => {
    expect(errorMessage(new Error(''))).toBe('Unknown error');
    expect(errorMessage(undefined)).toBe('Unknown error');
    expect(errorMessage({ message: 42 })).toBe('Unknown error');
    expect(errorMessage(null, 'Upload failed')).toBe('Upload failed');
  });

  it("puts the auth service's e-mail limit in words a member understands", () => {
    expect(
      errorMessage({ code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' }),
    ).toBe(EMAIL_LIMIT_REACHED);
    expect(errorMessage(new Error('Email rate limit exceeded'))).toBe(EMAIL_LIMIT_REACHED);
  });
});
