import { describe, expect, it } from 'vitest';
import { errorMessage } from './errors.ts';

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
});
