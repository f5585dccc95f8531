import { ArrowLeft, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Tone } from './ui/tone.ts';

export interface DetailPageHeaderProps {
  title: string;
  description: string;
  icon: LucideIcon;
  /** The tone of the icon tile: the department's or category's (tailwind.config.js). */
  tone: Tone;
  /** Where the back button goes, and its text. */
  backTo: string;
  backLabel: string;
  /** Buttons shown beside the title (e.g. Add Integration). */
  actions?: ReactNode;
}

/** The header of a category or department page: back button, icon, title and description. */
export function DetailPageHeader({
  title,
  description,
  icon: Icon,
  tone,
  backTo,
  backLabel,
  actions,
}: DetailPageHeaderProps) {
  return (
    <header className="space-y-4">
      <Link
        to={backTo}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        {backLabel}
      </Link>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-start gap-4">
          <span
            data-tone={tone}
            className="shrink-0 rounded-lg bg-tone-100 p-3 text-tone-700"
            aria-hidden="true"
          >
            <Icon className="h-8 w-8" />
          </span>
          <div className="min-w-0">
            <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl">{title}</h1>
            <p className="mt-1 text-gray-600">{description}</p>
          </div>
        </div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
    </header>
  );
}
