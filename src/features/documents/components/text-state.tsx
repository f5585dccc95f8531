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
 * Where the search words were found: the server's snippet, with the words between `<mark>` and
 * `</mark>` highlighted. Everything is rendered as text: the snippet is split on the markers,
 * never parsed as HTML.
 */
export function SearchSnippet({ snippet }: { snippet: string }) {
  const parts = snippet.split(/(<mark>|<\/mark>)/);
  let marked = false;
  return (
    <p className="truncate text-xs text-gray-600" data-testid="search-snippet">
      {parts.map((part, index) => {
        if (part === '<mark>' || part === '</mark>') {
          marked = part === '<mark>';
          return null;
        }
        return marked ? (
          <mark key={index} className="rounded bg-yellow-100 px-0.5 text-gray-900">
            {part}
          </mark>
        ) : (
          <span key={index}>{part}</span>
        );
      })}
    </p>
  );
}
