/**
 * What a confirmed write answered: the stored object's kind, name, new
 * resourceVersion and HTTP status, with warnings; or the Status of a
 * refusal (an apply conflict lists the fields and their managers).
 */

import { ErrorNotice, traceOf } from '../common/ErrorNotice';
import { WarningList } from '../common/WarningList';
import { routeHref } from '../lib/route';
import { useLoggedRequests } from '../app/RequestLogContext';
import { TraceLink } from '../trace/TraceLink';
import { latestWriteAuditId } from '../trace/trace-model';
import type { Outcome } from './useWriteFlow';

export function WriteOutcome({ outcome }: { outcome: Outcome }) {
  const object = outcome.object;
  const logged = useLoggedRequests();
  // A refused write's notice links to its trace itself.
  const auditId =
    outcome.plan === undefined || traceOf(outcome.error) !== undefined
      ? undefined
      : latestWriteAuditId(logged, outcome.plan.method, outcome.plan.path);
  const verb = { create: 'Created', update: 'Updated', apply: 'Applied' }[
    outcome.plan?.operation ?? 'create'
  ];
  return (
    <section className="write-outcome" aria-live="polite">
      {outcome.error !== undefined ? (
        <ErrorNotice
          title={outcome.plan === undefined ? 'Nothing was sent' : `The ${outcome.plan.operation} failed`}
          error={outcome.error}
        />
      ) : object !== undefined ? (
        <p className="success" role="status">
          {verb} {object.kind}{' '}
          {object.metadata?.namespace === undefined ? '' : `${object.metadata.namespace}/`}
          {object.metadata?.name} — HTTP {outcome.status}, resourceVersion {object.metadata?.resourceVersion}
        </p>
      ) : null}
      <WarningList warnings={outcome.warnings} />
      {auditId !== undefined ? (
        <p>
          <TraceLink auditId={auditId} />
        </p>
      ) : null}
      {outcome.plan !== undefined && object !== undefined ? (
        <p>
          <a
            href={routeHref('console', { method: 'GET', path: outcome.plan.objectPath || outcome.plan.path })}
          >
            Read it in the console
          </a>
        </p>
      ) : null}
    </section>
  );
}
