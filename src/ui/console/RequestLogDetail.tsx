/**
 * One logged request in full — request and response headers and bodies —
 * with "Open in console" to send it again (changed or not), and the same
 * request as curl and kubectl commands for the Node host.
 */

import { CodeBlock } from '../common/CodeBlock';
import { curlCommand, kubectlCommand, type NodeHostTarget } from '../lib/commands';
import type { LoggedRequest } from '../lib/request-log';
import { TraceLink } from '../trace/TraceLink';
import { CommandBlock } from './CommandBlock';

interface Props {
  entry: LoggedRequest;
  target: NodeHostTarget;
  onOpen: () => void;
}

export function RequestLogDetail({ entry, target, onOpen }: Props) {
  const request = {
    method: entry.method,
    path: entry.path,
    headers: entry.requestHeaders,
    ...(entry.requestBody !== undefined ? { body: entry.requestBody } : {}),
  };
  return (
    <section className="log-detail" aria-label="Logged request">
      <div className="toolbar">
        <h3>
          {entry.method} {entry.path}
        </h3>
        <button type="button" onClick={onOpen}>
          Open in console
        </button>
        <TraceLink headers={entry.responseHeaders} method={entry.method} />
      </div>
      <p>
        {entry.error !== undefined
          ? `No answer: ${entry.error}`
          : `HTTP ${entry.status ?? '…'} ${entry.statusText ?? ''}${entry.durationMs !== undefined ? ` · ${entry.durationMs.toFixed(0)} ms` : ''}`}
        {entry.streamed ? ' · streamed (body not kept)' : ''}
      </p>
      <CommandBlock title="curl" command={curlCommand(request, target)} />
      <CommandBlock title="kubectl" command={kubectlCommand(request, target)} />
      <details>
        <summary>Request headers{entry.requestBody !== undefined ? ' and body' : ''}</summary>
        <CodeBlock
          text={[...entry.requestHeaders.map(([n, v]) => `${n}: ${v}`), '', entry.requestBody ?? ''].join(
            '\n',
          )}
          label="Request"
        />
      </details>
      <details>
        <summary>Response headers and body</summary>
        <CodeBlock
          text={[
            ...(entry.responseHeaders ?? []).map(([n, v]) => `${n}: ${v}`),
            '',
            entry.responseBody ?? '',
          ].join('\n')}
          label="Response"
        />
      </details>
    </section>
  );
}
