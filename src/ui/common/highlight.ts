/**
 * YAML highlighting that follows the page's light and dark themes.
 * CodeMirror's default highlight style has fixed colours chosen for a light
 * background (dark blue keys on the dark theme's near-black fail contrast).
 * This is the same style with each colour read from a CSS custom property
 * named after it (`--syntax-00c` for `#00c`), falling back to the original
 * colour, so styles.css gives the dark theme its own readable palette and
 * the editor's code keeps one highlight style.
 */

import { defaultHighlightStyle, HighlightStyle } from '@codemirror/language';

export const pageHighlightStyle = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) => {
    const color: unknown = spec['color'];
    return typeof color === 'string' && color.startsWith('#')
      ? { ...spec, color: `var(--syntax-${color.slice(1)}, ${color})` }
      : spec;
  }),
);
