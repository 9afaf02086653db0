/**
 * A block of program text (YAML, JSON, a command) in a scrollable,
 * focusable region, so keyboard users can scroll long objects too.
 */

export function CodeBlock({ text, label, className }: { text: string; label: string; className?: string }) {
  return (
    <pre className={`code-block ${className ?? ''}`} tabIndex={0} aria-label={label}>
      <code>{text}</code>
    </pre>
  );
}
