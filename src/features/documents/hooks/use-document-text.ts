import { useEffect, useState } from 'react';
import { loadDocumentText } from '../api/document-content.ts';

export interface DocumentTextState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The stored text when it was loaded. */
  text: string;
  error: string | null;
}

/** The stored text of a text-based document, loaded when `enabled`. */
export function useDocumentText(filePath: string, enabled: boolean): DocumentTextState {
  const [state, setState] = useState<DocumentTextState>({
    status: enabled ? 'loading' : 'idle',
    text: '',
    error: null,
  });

  useEffect(() => {
    if (!enabled) return;
    let active = true;
    loadDocumentText(filePath).then(
      (text) => active && setState({ status: 'ready', text, error: null }),
      (error: unknown) =>
        active &&
        setState({
          status: 'error',
          text: '',
          error: error instanceof Error ? error.message : 'Failed to load document content',
        }),
    );
    return () => {
      active = false;
    };
  }, [filePath, enabled]);

  return state;
}
