// The app's theme, read by Tailwind 4 through `@config` in src/index.css. Colours that carry a
// meaning (a role, an expiry state, a department, an operations category) are chosen here and
// nowhere else: an element names its meaning with `data-tone="…"`, and everything inside it
// paints with the `tone-*` colours (`bg-tone-100 text-tone-800`), so no component spells out a
// colour class per role, state or department.
import colors from 'tailwindcss/colors';
import plugin from 'tailwindcss/plugin';

/** The shades a tone offers: soft panels (50), tiles and badges (100), borders (200), ink. */
const SHADES = [50, 100, 200, 300, 500, 600, 700, 800, 900];

/** Plain hues, for tones that carry no meaning beyond telling things apart. */
const HUES = [
  'blue',
  'green',
  'red',
  'yellow',
  'amber',
  'orange',
  'purple',
  'pink',
  'rose',
  'indigo',
  'teal',
  'cyan',
  'slate',
  'gray',
];

/** What each meaning looks like: `data-tone` name → hue. */
const MEANINGS = {
  // Roles (product-spec §1): the badge of the navigation bar and the members table.
  'role-master_admin': 'purple',
  'role-admin': 'blue',
  'role-user': 'gray',
  'role-viewer': 'teal',
  // Expiry classification (spec §4) and document status: green Active, yellow Expiring Soon,
  // red for anything else.
  'expiry-overdue': 'red',
  'expiry-soon': 'yellow',
  'expiry-ok': 'green',
  'status-active': 'green',
  'status-expiring': 'yellow',
  'status-other': 'red',
  // Outcomes: information, success, warning and danger notices.
  info: 'blue',
  success: 'green',
  warning: 'yellow',
  danger: 'red',
  // The nine departments (spec §2).
  'department-foster-adopt': 'rose',
  'department-r-kids': 'amber',
  'department-r-youth': 'indigo',
  'department-creative-media': 'pink',
  'department-cge': 'teal',
  'department-sunday-production': 'purple',
  'department-worship': 'blue',
  'department-elder-board': 'slate',
  'department-deacon-board': 'green',
  // The nine operations categories (spec §2).
  'category-hr': 'blue',
  'category-accounting': 'green',
  'category-communications': 'purple',
  'category-legal': 'red',
  'category-branding': 'pink',
  'category-social-media': 'indigo',
  'category-volunteer-management': 'orange',
  'category-streaming': 'rose',
  'category-it': 'slate',
};

/** Every `data-tone` name the app may use. */
export const TONE_NAMES = [...HUES, ...Object.keys(MEANINGS)];

function toneVariables(hue) {
  return Object.fromEntries(SHADES.map((shade) => [`--tone-${shade}`, colors[hue][shade]]));
}

/** `[data-tone="hr"] { --tone-50: …; … }` for every tone: base styles, always in the CSS. */
const tones = plugin(({ addBase }) => {
  addBase({
    // Outside any tone, `tone-*` falls back to the neutral grey.
    ':root': toneVariables('gray'),
    ...Object.fromEntries(HUES.map((hue) => [`[data-tone="${hue}"]`, toneVariables(hue)])),
    ...Object.fromEntries(
      Object.entries(MEANINGS).map(([name, hue]) => [`[data-tone="${name}"]`, toneVariables(hue)]),
    ),
  });
});

/** @type {import('tailwindcss').Config} */
export default {
  theme: {
    extend: {
      colors: {
        // The current tone (see above), e.g. `bg-tone-100 text-tone-700`.
        tone: Object.fromEntries(SHADES.map((shade) => [shade, `var(--tone-${shade})`])),
        // Actions: primary buttons and links, and destructive ones.
        primary: colors.blue,
        destructive: colors.red,
      },
      fontFamily: {
        // The system's own fonts: nothing to download, and familiar on every device.
        sans: [
          'ui-sans-serif',
          'system-ui',
          '-apple-system',
          '"Segoe UI"',
          'Roboto',
          '"Helvetica Neue"',
          'Arial',
          'sans-serif',
          '"Apple Color Emoji"',
          '"Segoe UI Emoji"',
        ],
        mono: [
          'ui-monospace',
          'SFMono-Regular',
          'Menlo',
          'Consolas',
          '"Liberation Mono"',
          'monospace',
        ],
      },
    },
  },
  plugins: [tones],
};
