// Types of tailwind.config.js, for the test that checks the tones the app names exist there.
import type { Config } from 'tailwindcss';

export const TONE_NAMES: string[];
declare const config: Config;
export default config;
