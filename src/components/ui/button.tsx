import { Loader2, type LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';

export type ButtonVariant =
  'primary' | 'secondary' | 'destructive' | 'destructive-outline' | 'ghost' | 'link';
export type ButtonSize = 'sm' | 'md' | 'icon';

const base =
  'inline-flex items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600 disabled:cursor-not-allowed disabled:opacity-50';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary-600 text-white shadow-sm hover:bg-primary-700',
  secondary: 'border border-gray-300 bg-white text-gray-700 hover:bg-gray-50',
  destructive: 'bg-destructive-600 text-white shadow-sm hover:bg-destructive-700',
  'destructive-outline':
    'border border-destructive-300 bg-white text-destructive-700 hover:bg-destructive-50',
  ghost: 'text-gray-600 hover:bg-gray-100 hover:text-gray-900',
  link: 'text-primary-700 underline-offset-2 hover:underline',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
  icon: 'p-2',
};

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/** The classes of a button, for the rare element that must look like one (a file label). */
export function buttonClass({ variant = 'primary', size = 'md', className = '' }: ButtonStyle) {
  // A link-styled button keeps the text's own size and spacing.
  const spacing = variant === 'link' ? 'text-sm' : sizes[size];
  return `${base} ${variants[variant]} ${spacing} ${className}`.trim();
}

/** The icon (or, while busy, a spinner) and the text of a button or button-styled link. */
export function ButtonContent({
  icon: Icon,
  busy,
  children,
}: {
  icon?: LucideIcon;
  busy: boolean;
  children: ReactNode;
}) {
  const Shown = busy ? Loader2 : Icon;
  return (
    <>
      {Shown && (
        <Shown className={`h-4 w-4 shrink-0 ${busy ? 'animate-spin' : ''}`} aria-hidden="true" />
      )}
      {children}
    </>
  );
}

export interface ButtonProps extends ComponentProps<'button'>, ButtonStyle {
  /** An icon before the text (decorative: the text or `aria-label` names the button). */
  icon?: LucideIcon;
  /** While true the button is disabled and reads `busyLabel` (the spec's "Saving...", …). */
  busy?: boolean;
  busyLabel?: string;
}

/**
 * The app's button (after bulletproof-react's): a variant (primary, secondary, destructive,
 * destructive-outline, ghost, link), a size, an optional icon, and a busy state that disables
 * it and shows the specification's busy text. `type="button"` unless told otherwise, so it
 * never submits a form by accident.
 */
export function Button({
  variant,
  size,
  className,
  icon,
  busy = false,
  busyLabel,
  disabled,
  type = 'button',
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      {...props}
      type={type}
      disabled={disabled || busy}
      className={buttonClass({ variant, size, className })}
    >
      <ButtonContent icon={icon} busy={busy}>
        {busy && busyLabel ? busyLabel : children}
      </ButtonContent>
    </button>
  );
}
