import { describe, expect, it } from 'vitest';
import { EMAIL_LIMIT_REACHED, errorMessage, succeeded } from './errors.ts';

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

describe('succeeded', () => {
  it('resolves to the answer of a call that succeeded, count and all', async () => {
    const answer = { data: [1, 2], count: 2, error: null };
    await expect(succeeded(Promise.resolve(answer))).resolves.toBe(answer);
  });

  it("throws a refusal as an Error with the server's message, or the default without one", async () => {
    const refusal = { data: null, error: { code: '42501', message: 'permission denied' } };
    await expect(succeeded(Promise.resolve(refusal))).rejects.toThrow(
      new Error('permission denied'),
    );
    const silent = { data: null, error: { message: '' } };
    await expect(succeeded(Promise.resolve(silent), 'Delete failed')).rejects.toThrow(
      new Error('Delete failed'),
    );
    await expect(succeeded(Promise.resolve(silent))).rejects.toThrow(new Error('Unknown error'));
  });

  it('throws an Error of supabase-js as it is, so its class and code stay', async () => {
    class AuthError extends Error {
      code = 'otp_expired';
    }
    const error = new AuthError('Token has expired');
    await expect(succeeded(Promise.resolve({ data: null, error }))).rejects.toBe(error);
  });
});
