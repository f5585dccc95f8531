/** Tailwind class sets for one colour: static strings, so Tailwind's scanner sees every class. */
export interface ColourTone {
  /** Icon tile: tinted background and text. */
  icon: string;
  /** A panel's tinted background and border. */
  panel: string;
  /** Strong text on a light background. */
  text: string;
}

export const TONES = {
  blue: {
    icon: 'bg-blue-100 text-blue-700',
    panel: 'bg-blue-50 border-blue-200',
    text: 'text-blue-800',
  },
  green: {
    icon: 'bg-green-100 text-green-700',
    panel: 'bg-green-50 border-green-200',
    text: 'text-green-800',
  },
  red: { icon: 'bg-red-100 text-red-700', panel: 'bg-red-50 border-red-200', text: 'text-red-800' },
  purple: {
    icon: 'bg-purple-100 text-purple-700',
    panel: 'bg-purple-50 border-purple-200',
    text: 'text-purple-800',
  },
  pink: {
    icon: 'bg-pink-100 text-pink-700',
    panel: 'bg-pink-50 border-pink-200',
    text: 'text-pink-800',
  },
  indigo: {
    icon: 'bg-indigo-100 text-indigo-700',
    panel: 'bg-indigo-50 border-indigo-200',
    text: 'text-indigo-800',
  },
  orange: {
    icon: 'bg-orange-100 text-orange-700',
    panel: 'bg-orange-50 border-orange-200',
    text: 'text-orange-800',
  },
  teal: {
    icon: 'bg-teal-100 text-teal-700',
    panel: 'bg-teal-50 border-teal-200',
    text: 'text-teal-800',
  },
  slate: {
    icon: 'bg-slate-100 text-slate-700',
    panel: 'bg-slate-50 border-slate-200',
    text: 'text-slate-800',
  },
  amber: {
    icon: 'bg-amber-100 text-amber-700',
    panel: 'bg-amber-50 border-amber-200',
    text: 'text-amber-800',
  },
  cyan: {
    icon: 'bg-cyan-100 text-cyan-700',
    panel: 'bg-cyan-50 border-cyan-200',
    text: 'text-cyan-800',
  },
  rose: {
    icon: 'bg-rose-100 text-rose-700',
    panel: 'bg-rose-50 border-rose-200',
    text: 'text-rose-800',
  },
} as const satisfies Record<string, ColourTone>;

export type ToneName = keyof typeof TONES;
