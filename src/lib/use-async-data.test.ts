import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAsyncData } from './use-async-data.ts';

/** A promise the test settles when it wants to. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('useAsyncData', () => {
  it('is loading, then holds the value', async () => {
    const answer = deferred<number>();
    const load = () => answer.promise;
    const { result } = renderHook(() => useAsyncData(load));
    expect(result.current).toMatchObject({ data: undefined, error: null, loading: true });
    await act(async () => answer.resolve(42));
    expect(result.current).toMatchObject({ data: 42, error: null, loading: false });
  });

  it('keeps the message of a failure and recovers on reload', async () => {
    let attempt = 0;
    const load = async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('offline');
      return 'back';
    };
    const { result } = renderHook(() => useAsyncData(load));
    await waitFor(() => expect(result.current.error).toBe('offline'));
    expect(result.current.loading).toBe(false);
    await act(() => result.current.reload());
    expect(result.current).toMatchObject({ data: 'back', error: null, loading: false });
  });

  it('drops an older answer that arrives after a newer load started', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const loadFirst = () => first.promise;
    const loadSecond = () => second.promise;
    const { result, rerender } = renderHook(({ load }) => useAsyncData(load), {
      initialProps: { load: loadFirst },
    });
    rerender({ load: loadSecond });
    await act(async () => second.resolve('new'));
    await act(async () => first.resolve('old'));
    expect(result.current.data).toBe('new');
  });

  it('does not show what an earlier loader produced while the new one loads', async () => {
    const second = deferred<string>();
    const loadFirst = async () => 'hr figures';
    const loadSecond = () => second.promise;
    const { result, rerender } = renderHook(({ load }) => useAsyncData(load), {
      initialProps: { load: loadFirst as () => Promise<string> },
    });
    await waitFor(() => expect(result.current.data).toBe('hr figures'));
    rerender({ load: loadSecond });
    expect(result.current).toMatchObject({ data: undefined, loading: true });
    await act(async () => second.resolve('legal figures'));
    expect(result.current.data).toBe('legal figures');
  });
});
