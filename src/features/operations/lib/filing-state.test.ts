import { addDays, format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { filingState } from './filing-state.ts';

const now = new Date(2026, 5, 15, 14, 30); // 15 June 2026, mid-afternoon local time
const day = (offset: number) => format(addDays(now, offset), 'yyyy-MM-dd');

describe('filingState', () => {
  it('is unknown without a due date', () => {
    expect(filingState(null, now)).toBe('unknown');
    expect(filingState(undefined, now)).toBe('unknown');
    expect(filingState('', now)).toBe('unknown');
  });

  it('is unknown for an unreadable date', () => {
    expect(filingState('not a date', now)).toBe('unknown');
  });

  it('is overdue once the due date has passed', () => {
    expect(filingState(day(-1), now)).toBe('overdue');
    expect(filingState(day(-400), now)).toBe('overdue');
  });

  it('is due soon from today up to and including 30 days ahead', () => {
    expect(filingState(day(0), now)).toBe('due-soon');
    expect(filingState(day(1), now)).toBe('due-soon');
    expect(filingState(day(30), now)).toBe('due-soon');
  });

  it('is current from 31 days ahead', () => {
    expect(filingState(day(31), now)).toBe('current');
    expect(filingState(day(365), now)).toBe('current');
  });

  it('counts calendar days, whatever the time of day', () => {
    const lateEvening = new Date(2026, 5, 15, 23, 59);
    const earlyMorning = new Date(2026, 5, 15, 0, 1);
    expect(filingState('2026-06-15', lateEvening)).toBe('due-soon');
    expect(filingState('2026-06-14', earlyMorning)).toBe('overdue');
    expect(filingState('2026-07-15', lateEvening)).toBe('due-soon');
    expect(filingState('2026-07-16', earlyMorning)).toBe('current');
  });
});
