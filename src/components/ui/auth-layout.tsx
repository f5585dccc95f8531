import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from './card.tsx';

export interface AuthLayoutProps {
  /** The screen's sign: a key, an envelope, a shield… */
  icon: LucideIcon;
  /** `danger` for a screen that says a link or invitation cannot be used. */
  tone?: 'primary' | 'danger';
  /** The page's heading (h1). */
  title: ReactNode;
  /** A line under the heading. */
  description?: ReactNode;
  children?: ReactNode;
}

/**
 * The screens a person sees before they are inside the app (sign-in, sign-up, a password
 * reset, an e-mail confirmation, an invitation, two-factor sign-in): one card in the middle of
 * the page, with the screen's sign, heading and line, then its form or message.
 */
export function AuthLayout({
  icon: Icon,
  tone = 'primary',
  title,
  description,
  children,
}: AuthLayoutProps) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      <Card as="section" padding="lg" className="w-full max-w-md">
        <div className="text-center">
          <span
            className={`mx-auto flex h-12 w-12 items-center justify-center rounded-full ${
              tone === 'danger'
                ? 'bg-destructive-100 text-destructive-600'
                : 'bg-primary-100 text-primary-700'
            }`}
          >
            <Icon className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-gray-900">{title}</h1>
          {description && <div className="mt-2 text-sm text-gray-600">{description}</div>}
        </div>
        {children && <div className="mt-6">{children}</div>}
      </Card>
    </main>
  );
}
