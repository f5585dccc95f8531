import { RestrictedLock } from '../../../components/restricted-lock.tsx';
import { formatDate, formatFileSize } from '../../../lib/format.ts';

/**
 * Category (with the lock when it is restricted), size and created date of a document, as one
 * line under its name.
 */
export function DocumentMeta({
  category,
  size,
  createdAt,
  restricted = false,
}: {
  category: string;
  size: number;
  createdAt: string;
  restricted?: boolean;
}) {
  return (
    <span className="mt-0.5 flex items-center gap-1 text-sm font-normal text-gray-500">
      {restricted && <RestrictedLock />}
      {category} · {formatFileSize(size)} · {formatDate(createdAt)}
    </span>
  );
}
