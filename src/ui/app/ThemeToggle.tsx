/**
 * Switches between the system's theme, light and dark, remembered in this
 * browser. A select, so keyboard users get the usual arrow-key behaviour.
 */

import { useState } from 'react';
import { preferences, type ThemePreference } from '../lib/preferences';
import { applyTheme } from './theme';

export function ThemeToggle() {
  const [theme, setTheme] = useState<ThemePreference>(() => preferences.theme());
  return (
    <label className="theme-toggle">
      <span className="visually-hidden">Theme</span>
      <select
        title="Theme: Auto follows the system's setting"
        value={theme}
        onChange={(event) => {
          const next = event.target.value as ThemePreference;
          setTheme(next);
          preferences.setTheme(next);
          applyTheme(next);
        }}
      >
        {/* Short, so the header stays one row at 1280 px; the hidden label and the tooltip say what it is. */}
        <option value="system">Auto</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
