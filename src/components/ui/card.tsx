import type { ComponentPropsWithoutRef } from 'react';

const PADDING = { none: '', sm: 'p-3', md: 'p-4', lg: 'p-6 sm:p-8' } as const;

type CardElement = 'div' | 'section' | 'article' | 'form' | 'ul' | 'aside';

export type CardProps<As extends CardElement> = {
  /** The element it is: a `section` with a heading, a `form`, a `ul` of rows… (`div` by default). */
  as?: As;
  /** Inner space: `md` for panels, `lg` for a page's one card, `none` for lists of rows. */
  padding?: keyof typeof PADDING;
} & ComponentPropsWithoutRef<As>;

/**
 * A white panel with a border and a light shadow: the surface every panel, list and form of
 * the app sits on. Layout (width, spacing, grid) comes from `className`.
 */
export function Card<As extends CardElement = 'div'>({
  as,
  padding = 'md',
  className = '',
  ...props
}: CardProps<As>) {
  // One element of the few above; its props were checked against it by the caller's type.
  const Element = (as ?? 'div') as 'div';
  return (
    <Element
      {...(props as ComponentPropsWithoutRef<'div'>)}
      className={`rounded-lg border border-gray-200 bg-white shadow-sm ${PADDING[padding]} ${className}`.trim()}
    />
  );
}
