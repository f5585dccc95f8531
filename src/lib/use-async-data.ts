import { useCallback, useEffect, useRef, useState } from 'react';

export interface AsyncData<T> {
  /** The last value loaded; undefined until the first load succeeds. */
  data: T | undefined;
  /** The message of the last failed load; null after a success. */
  error: string | null;
  /** True while a load is running (also during a reload, with the previous data kept). */
  loading: boolean;
  /** Loads again, e.g. after a change was saved. */
  reload(): Promise<void>;
}

/**
 * Runs `load` when the component mounts and whenever `load` changes (callers wrap it in
 * `useCallback` with the values it depends on), and keeps its result, error and loading state
 * in one place instead of ad-hoc flags. A response that arrives after a newer load started,
 * or after unmounting, is dropped, so a slow old answer never overwrites a newer one.
 */
export function useAsyncData<T>(load: () => Promise<T>): AsyncData<T> {
  const [state, setState] = useState<{
    source: (() => Promise<T>) | null;
    data: T | undefined;
    error: string | null;
  }>({ source: null, data: undefined, error: null });
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);

  const run = useCallback(async () => {
    const request = ++latest.current;
    setLoading(true);
    try {
      const data = await load();
      if (request === latest.current) setState({ source: load, data, error: null });
    } catch (error) {
      if (request === latest.current) {
        setState((previous) => ({
          source: load,
          data: previous.source === load ? previous.data : undefined,
          error: error instanceof Error ? error.message : String(error),
        }));
      }
    } finally {
      if (request === latest.current) setLoading(false);
    }
  }, [load]);

  useEffect(() => {
    void run();
    return () => {
      // Invalidate the running request: its answer belongs to an old `load` or an unmounted view.
      latest.current += 1;
    };
  }, [run]);

  // What an older `load` (say, another category's) produced is not shown for the new one.
  const current = state.source === load;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : null,
    loading: loading || !current,
    reload: run,
  };
}
