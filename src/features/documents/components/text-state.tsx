import { snippetParts } from '../utils/snippet-parts.ts';
import type { SearchedDocument } from '../api/search-documents.ts';

/**
 * Whether the text inside a document's file can be searched yet: "Indexing…" while it is read,
 * "Text not available" (with the reason as a tooltip) when it cannot be. Nothing once it is.
 */
export function TextState({ document }: { document: SearchedDocument }) {
  if (document.text_state === 'pending') {
    return <span className="text-xs text-gray-500">Indexing…</span>;
  }
  if (document.text_state === 'failed' || document.text_state === 'unavailable') {
    return (
      <span className="text-xs text-gray-500" title={document.text_reason ?? undefined}>
        Text not available
      </span>
    );
  }
  return null;
}

/**
 * Where the search words were found: the server's snippet, the matched words highlighted, on
 * up to two lines that start a few words before the first of them (`snippetParts`), so that it
 * is never cut off. Everything is rendered as text: the snippet is split on the markers, never
 * parsed as HTML.
 */
export function SearchSnippet({ snippet }: { snippet: string }) {
  return (
    <p
      className="line-clamp-2 text-xs break-words text-gray-600 [overflow-wrap:anywhere]"
      data-testid="search-snippet"
    >
      {snippetParts(snippet).map(({ text, marked }, index) =>
        marked ? (
          <mark key={index} className="rounded bg-yellow-100 px-0.5 text-gray-900">
            {text}
          </mark>
        ) : (
          <span key={index}>{text}</span>
        ),
      )}
    </p>
  );
}
