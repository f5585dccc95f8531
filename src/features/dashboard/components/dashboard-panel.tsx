import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '../../../components/ui/card.tsx';

/** A titled dashboard list with a link to where it is managed. */
export function DashboardPanel({
  id,
  title,
  linkText,
  linkTo,
  children,
}: {
  id: string;
  title: string;
  linkText: string;
  linkTo: string;
  children: ReactNode;
}) {
  // min-w-0: as a grid item the panel would otherwise grow to its longest unbroken line (a long
  // document name) and widen the whole page on a phone; with it the names are shortened instead.
  return (
    <Card as="section" padding="none" aria-labelledby={id} className="flex min-w-0 flex-col">
      <div className="flex items-center justify-between border-b border-gray-100 px-4 py-3">
        <h2 id={id} className="text-lg font-semibold text-gray-900">
          {title}
        </h2>
        <Link to={linkTo} className="text-sm font-medium text-primary-700 hover:text-primary-800">
          {linkText}
        </Link>
      </div>
      <div className="flex-1">{children}</div>
    </Card>
  );
}
