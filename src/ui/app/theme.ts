/**
 * Light and dark themes: the stylesheet defines both palettes as custom
 * properties; `data-theme` on the root element picks one, and without it the
 * operating system's preference applies.
 */

import type { ThemePreference } from '../lib/preferences';

export function applyTheme(theme: ThemePreference): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset['theme'];
  else root.dataset['theme'] = theme;
}
