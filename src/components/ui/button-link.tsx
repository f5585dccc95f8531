import type { LucideIcon } from 'lucide-react';
import { Link, type LinkProps } from 'react-router-dom';
import { ButtonContent, buttonClass, type ButtonStyle } from './button.tsx';

export interface ButtonLinkProps extends LinkProps, ButtonStyle {
  icon?: LucideIcon;
}

/** A link to another page of the app that looks like a button ("Upload Documents"). */
export function ButtonLink({
  variant,
  size,
  className,
  icon,
  children,
  ...props
}: ButtonLinkProps) {
  return (
    <Link {...props} className={buttonClass({ variant, size, className })}>
      <ButtonContent icon={icon} busy={false}>
        {children}
      </ButtonContent>
    </Link>
  );
}
