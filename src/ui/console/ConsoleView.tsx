/**
 * The request console: compose any HTTP request and see the full answer;
 * beside it the request log of everything the UI sent, each entry openable
 * here and copyable as curl or kubectl for the Node host (`npm run serve`;
 * its URL and kubeconfig path are set in Workshop → Node host). A link may
 * fill the form (`method`, `path`, `body`, `contentType`, `headers`) or open
 * a logged request (`from`).
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { useLoggedRequests, useRequestLog } from '../app/RequestLogContext';
import type { ViewProps } from '../app/view-props';
import { preferences } from '../lib/preferences';
import { emptyComposed, fromLinkParams, fromLogged, type Composed } from './composer-state';
import { RequestComposer } from './RequestComposer';
import { RequestLogDetail } from './RequestLogDetail';
import { RequestLogList } from './RequestLogList';
import { ResponseView } from './ResponseView';
import { useConsoleRequest } from './useConsoleRequest';

export function ConsoleView({ params, active }: ViewProps) {
  const client = useClient();
  const log = useRequestLog();
  const entries = useLoggedRequests();
  const [composed, setComposed] = useState<Composed>(emptyComposed);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const request = useConsoleRequest(client);
  // Read on every render: the Node host settings may have changed in the workshop view.
  const target = preferences.nodeHost();

  const linkKey = JSON.stringify(['method', 'path', 'body', 'contentType', 'headers'].map((k) => params[k]));
  useEffect(() => {
    const linked = fromLinkParams(params);
    if (linked !== undefined) setComposed(linked);
    // linkKey stands for the parameters a link may fill the form with.
  }, [linkKey]);

  const entry = selected === undefined ? undefined : entries.find((e) => e.id === selected);
  return (
    <main className="console-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <section className="console-main" aria-label="Compose a request">
        <h2>Request console</h2>
        <RequestComposer
          composed={composed}
          busy={request.busy}
          streaming={request.answer?.streaming ?? false}
          onChange={setComposed}
          onSend={() => void request.send(composed)}
          onStop={request.stop}
        />
        {request.busy ? (
          <p role="status">
            <span className="spinner" aria-hidden="true" /> Waiting for the answer…
          </p>
        ) : null}
        <ResponseView answer={request.answer} error={request.error} />
      </section>
      <section className="console-log" aria-label="Requests the UI sent">
        <RequestLogList
          entries={entries}
          selected={selected}
          onSelect={setSelected}
          onClear={() => log.clear()}
        />
        {entry !== undefined ? (
          <RequestLogDetail entry={entry} target={target} onOpen={() => setComposed(fromLogged(entry))} />
        ) : (
          <p className="muted">Choose a request to see it in full and copy it as curl or kubectl.</p>
        )}
      </section>
    </main>
  );
}
