/**
 * A shell command for the Node host with a copy button; the command stays
 * on screen, so it can also be selected by hand.
 */

import { CopyButton } from '../common/CopyButton';

export function CommandBlock({ title, command }: { title: string; command: string | undefined }) {
  return (
    <div className="command-block">
      <div className="command-heading">
        <strong>{title}</strong>
        {command !== undefined ? <CopyButton text={command} label={`Copy ${title}`} /> : null}
      </div>
      <pre className="code-block" tabIndex={0} aria-label={title}>
        <code>{command ?? 'kubectl has no command that sends this request; use curl.'}</code>
      </pre>
    </div>
  );
}
