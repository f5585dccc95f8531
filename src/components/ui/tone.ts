import type { ExpiryState } from '../../lib/expiry.ts';
import type { Role } from '../../lib/roles.ts';

/**
 * The `data-tone` names of tailwind.config.js, where each is given its colours. An element
 * with `data-tone` paints its content with `bg-tone-100`, `text-tone-700`… in that tone.
 */
export type Hue =
  | 'blue'
  | 'green'
  | 'red'
  | 'yellow'
  | 'amber'
  | 'orange'
  | 'purple'
  | 'pink'
  | 'rose'
  | 'indigo'
  | 'teal'
  | 'cyan'
  | 'slate'
  | 'gray';

/** Outcomes: information, success, warning and danger notices. */
export type OutcomeTone = 'info' | 'success' | 'warning' | 'danger';

export type Tone =
  | Hue
  | OutcomeTone
  | `role-${Role}`
  | `expiry-${ExpiryState}`
  | `status-${'active' | 'expiring' | 'other'}`
  | `department-${string}`
  | `category-${string}`;
