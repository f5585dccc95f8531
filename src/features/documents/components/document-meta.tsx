import { formatDate, formatFileSize } from '../../../lib/format.ts';

/** Category, size and created date of a document, as one line under its name. */
export function DocumentMeta({
  category,
  size,
  createdAt,
}: {
  category: string;
  size: number;
  createdAt: string;
}) {
  return (
    <span className="mt-0.5 block text-sm font-normal text-gray-500">
      {category} · {formatFileSize(size)} · {formatDate(createdAt)}
    </span>
  );
}
