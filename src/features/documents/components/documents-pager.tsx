import { Button } from '../../../components/ui/button.tsx';
import { PAGE_SIZE } from '../api/search-documents.ts';

/**
 * "Showing 51–100 of 1,234 documents", with the previous and next page. A search whose matches
 * the server stopped counting (`capped`) shows "of more than 10,000 documents", and the next
 * page is there while this one is full.
 */
export function DocumentsPager({
  page,
  total,
  capped = false,
  rowsOnPage,
  onPage,
}: {
  page: number;
  total: number;
  capped?: boolean;
  rowsOnPage: number;
  onPage: (page: number) => void;
}) {
  const first = page * PAGE_SIZE + 1;
  const last = capped ? first + rowsOnPage - 1 : Math.min(total, (page + 1) * PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const of = capped ? `more than ${total.toLocaleString()}` : total.toLocaleString();
  return (
    <div className="flex items-center justify-between gap-3 text-sm text-gray-600">
      <p role="status">
        {total === 0
          ? 'No documents'
          : `Showing ${first.toLocaleString()}–${last.toLocaleString()} of ${of} ${total === 1 && !capped ? 'document' : 'documents'}`}
      </p>
      {(pages > 1 || capped) && (
        <div className="flex items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={page === 0}
            onClick={() => onPage(page - 1)}
          >
            Previous
          </Button>
          <span>
            Page {page + 1}
            {!capped && ` of ${pages.toLocaleString()}`}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={capped ? rowsOnPage < PAGE_SIZE : page + 1 >= pages}
            onClick={() => onPage(page + 1)}
          >
            Next
          </Button>
        </div>
      )}
    </div>
  );
}
