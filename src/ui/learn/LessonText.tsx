/**
 * A lesson's text: paragraphs separated by blank lines, with `code`,
 * **bold** and [links](#/view?params) to the app (or to https pages, opened
 * in a new tab). Nothing else is interpreted, so an instructor's lesson
 * cannot inject markup.
 */

import type { ReactNode } from 'react';

const inline = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/g;

export function LessonText({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .filter((p) => p.trim() !== '')
        .map((paragraph, i) => (
          <p key={i}>{renderInline(paragraph)}</p>
        ))}
    </>
  );
}

function renderInline(text: string): ReactNode[] {
  return text.split(inline).map((part, i) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
      return <code key={i}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3)
      return <strong key={i}>{part.slice(2, -2)}</strong>;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link !== null) {
      const [, label, href] = link as unknown as [string, string, string];
      if (href.startsWith('#/'))
        return (
          <a key={i} href={href}>
            {label}
          </a>
        );
      if (/^https:\/\//.test(href))
        return (
          <a key={i} href={href} target="_blank" rel="noopener noreferrer">
            {label}
          </a>
        );
      return label;
    }
    return part;
  });
}
