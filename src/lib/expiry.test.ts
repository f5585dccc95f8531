import { describe, expect, it } from 'vitest';
import { classifyExpiry, daysUntil, utcDateString } from './expiry.ts';

const today = '2025-03-10';

describe('classifyExpiry', () => {
  it('has no state without an expiry date', () => {
    expect(classifyExpiry(null, today)).toBeNull();
    expect(classifyExpiry(undefined, today)).toBeNull();
    expect(classifyExpiry('', today)).toBeNull();
  });

  it('is overdue from the day before today backwards', () => {
    expect(classifyExpiry('2025-03-09', today)).toBe('overdue');
    expect(classifyExpiry('2020-01-01', today)).toBe('overdue');
  });

  it('is soon from today up to and including 30 days ahead', () => {
    expect(classifyExpiry('2025-03-10', today)).toBe('soon');
    expect(classifyExpiry('2025-03-11', today)).toBe('soon');
    expect(classifyExpiry('2025-04-09', today)).toBe('soon'); // today + 30
  });

  it('is ok from 31 days ahead', () => {
    expect(classifyExpiry('2025-04-10', today)).toBe('ok'); // today + 31
    expect(classifyExpiry('2030-01-01', today)).toBe('ok');
  });

  it('counts calendar days across month ends and leap days', () => {
    expect(daysUntil('2024-03-01', '2024-02-28')).toBe(2);
    expect(classifyExpiry('2024-03-29', '2024-02-28')).toBe('soon'); // 30 days in a leap year
    expect(classifyExpiry('2024-03-30', '2024-02-28')).toBe('ok');
  });

  it('reads timestamps by their date part', () => {
    expect(classifyExpiry('2025-03-09T23:59:59Z', today)).toBe('overdue');
    expect(classifyExpiry('2025-03-10T00:00:00Z', today)).toBe('soon');
  });

  it('has no state for an unreadable date', () => {
    expect(classifyExpiry('not a date', today)).toBeNull();
  });
});

describe('utcDateString', () => {
  it('is the UTC calendar date, whatever the local time zone', () => {
    expect(utcDateString(new Date('2025-03-10T23:30:00Z'))).toBe('2025-03-10');
    expect(utcDateString(new Date('2025-03-11T00:00:00Z'))).toBe('2025-03-11');
  });
});
