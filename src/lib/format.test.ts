import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatFileSize } from './format.ts';

describe('formatFileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1234, '1.21 KB'],
    [1024 * 1024 - 1, '1024 KB'],
    [1024 * 1024, '1 MB'],
    [10 * 1024 * 1024, '10 MB'],
    [2.345 * 1024 * 1024, '2.35 MB'],
    [1024 ** 3, '1 GB'],
    [5.5 * 1024 ** 4, '5632 GB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('shows nonsense sizes as 0 Bytes instead of NaN', () => {
    expect(formatFileSize(-5)).toBe('0 Bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
  });
});

describe('formatDate', () => {
  it('formats a calendar date as that day in every time zone', () => {
    expect(formatDate('2025-01-05')).toBe('Jan 05, 2025');
    expect(formatDate('2024-12-31')).toBe('Dec 31, 2024');
  });

  it('formats a timestamp in local time', () => {
    const local = new Date(2025, 6, 4, 9, 5);
    expect(formatDate(local.toISOString())).toBe('Jul 04, 2025');
    expect(formatDate(local)).toBe('Jul 04, 2025');
  });

  it('reads the timestamps Postgres writes, with or without a colon in the offset', () => {
    expect(formatDate('2025-03-09T23:30:00+00:00')).toBe(
      formatDate(new Date(Date.UTC(2025, 2, 9, 23, 30))),
    );
    expect(formatDateTime('2025-03-09 23:30:00.123+00')).toBe(
      formatDateTime(new Date(Date.UTC(2025, 2, 9, 23, 30))),
    );
  });

  it('is empty for a missing or unreadable date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('soon')).toBe('');
    expect(formatDate('March 5')).toBe('');
    expect(formatDate('2025-02-30')).toBe('');
    expect(formatDate(new Date(Number.NaN))).toBe('');
  });
});

describe('formatDateTime', () => {
  it('adds 24-hour time', () => {
    expect(formatDateTime(new Date(2025, 10, 25, 14, 30).toISOString())).toBe('Nov 25, 2025 14:30');
    expect(formatDateTime(null)).toBe('');
  });
});
