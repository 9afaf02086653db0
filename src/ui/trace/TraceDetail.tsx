/**
 * One request's admission trace: who sent what and what the server
 * answered, a dry-run label when nothing was stored (a dry run shows the
 * chain a real write would run), the outcome in a sentence (which step
 * denied, or how many changed the object), then per pass the chain diagram
 * and every step's details.
 */

import { formatClock } from '../lib/age';
import { useEffect, useRef } from 'react';
import type { AdmissionTraceRecord } from '../../api/admission-trace';
import { CopyButton } from '../common/CopyButton';
import { routeHref } from '../lib/route';
import { ChainDiagram } from './ChainDiagram';
import { TraceStepCard } from './TraceStepCard';
import { deniedStep, isDryRun, passTitle } from './trace-model';

export function TraceDetail({ record }: { record: AdmissionTraceRecord }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Arriving from an "open trace" link, keyboard and screen-reader users start at the trace.
  useEffect(() => heading.current?.focus(), [record.auditId]);
  const dryRun = isDryRun(record);
  const denied = deniedStep(record);
  const patched = record.steps.filter((s) => s.decision === 'patched').length;
  const failed = record.code !== undefined && record.code >= 400;

  return (
    <section className="trace-detail" aria-labelledby="trace-title">
      <div className="toolbar">
        <h3 id="trace-title" ref={heading} tabIndex={-1}>
          <span className={`method method-${record.method.toLowerCase()}`}>{record.method}</span>{' '}
          <span className="trace-path">{record.path}</span>
        </h3>
        {dryRun ? (
          <span className="trace-badge trace-dry-run" title="Every stage ran, nothing was stored">
            Dry run
          </span>
        ) : null}
      </div>
      <dl className="trace-facts trace-record-facts">
        <div>
          <dt>Answer</dt>
          <dd>
            {record.code === undefined ? (
              <span className="muted">in progress…</span>
            ) : (
              <span className={`status-code ${failed ? 'failed' : 'ok'}`}>HTTP {record.code}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>User</dt>
          <dd>{record.user}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>
            <time dateTime={record.received}>{formatClock(Date.parse(record.received))}</time>
          </dd>
        </div>
        <div>
          <dt>Audit-Id</dt>
          <dd>
            <code>{record.auditId}</code> <CopyButton text={record.auditId} label="Copy" />
          </dd>
        </div>
      </dl>
      <p className="trace-summary" role="status">
        {denied !== undefined
          ? `Denied by ${denied.name}${denied.code !== undefined ? ` (HTTP ${denied.code})` : ''}.`
          : failed
            ? `Admission let it through; the request failed later (HTTP ${record.code ?? ''}).`
            : `Admitted: ${record.steps.length} step${record.steps.length === 1 ? '' : 's'}, ${patched} changed the object.`}
        {dryRun ? ' A dry run: this is the chain a real write would run, but nothing was stored.' : ''}
      </p>
      {record.passes.map((pass, passIndex) => (
        <section
          key={passIndex}
          className="trace-pass"
          aria-label={`Pass ${passIndex + 1}: ${passTitle(pass)}`}
        >
          {record.passes.length > 1 || pass.name !== '' ? (
            <h4 className="trace-pass-title">
              {record.passes.length > 1 ? `Pass ${passIndex + 1}: ` : ''}
              {passTitle(pass)}
              {pass.dryRun ? ' (dry run)' : ''}
            </h4>
          ) : null}
          <ChainDiagram steps={pass.steps} passIndex={passIndex} />
          <div className="trace-steps">
            {pass.steps.map((step, index) => (
              <TraceStepCard key={index} step={step} passIndex={passIndex} index={index} />
            ))}
          </div>
        </section>
      ))}
      <p>
        <a href={routeHref('console', { method: 'GET', path: `/sandbox/v1/traces/${record.auditId}` })}>
          Read this trace as JSON in the console
        </a>
      </p>
    </section>
  );
}
