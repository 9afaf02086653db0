/**
 * One admission step in full: what it is (plugin, webhook or policy; its
 * phase, round, configuration and binding), what it decided and how long it
 * took; for a denial the Status message and code and the rule that fired;
 * for a mutation the JSON patch operations and a diff of the object before
 * and after as YAML; the warnings and audit annotations it added; and for a
 * webhook the AdmissionReview it was sent and the one it answered, folded.
 */

import type { AdmissionTraceStep, JsonPatchOperation } from '../../api/admission-trace';
import { CodeBlock } from '../common/CodeBlock';
import { LineDiffView } from '../common/LineDiffView';
import { toYaml } from '../lib/yaml-text';
import { afterOf, decisionLabels, formatDuration, stepElementId } from './trace-model';

interface Props {
  step: AdmissionTraceStep;
  passIndex: number;
  index: number;
}

export function TraceStepCard({ step, passIndex, index }: Props) {
  const id = stepElementId(passIndex, index);
  const after = afterOf(step);
  const facts: [string, string][] = [];
  if (step.configuration !== undefined) facts.push(['Configuration', step.configuration]);
  if (step.binding !== undefined) facts.push(['Binding', step.binding]);
  if (step.round !== undefined && (step.type === 'webhook' || step.round > 0))
    facts.push(['Round', String(step.round + 1)]);
  if (step.index !== undefined) facts.push(['Webhook index', String(step.index)]);
  if (step.failurePolicy !== undefined) facts.push(['Failure policy', step.failurePolicy]);
  if (step.rule !== undefined && step.decision !== 'denied') facts.push(['Rule', step.rule]);

  return (
    <article
      className={`trace-step decision-${step.decision}`}
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
    >
      <header className="trace-step-header">
        <h4 id={`${id}-title`}>
          <span className="muted">{index + 1}.</span> {step.name}
        </h4>
        <span className="trace-badge">{step.type}</span>
        <span className="trace-badge">{step.phase}</span>
        <span className={`trace-badge trace-decision decision-${step.decision}`}>
          {decisionLabels[step.decision]}
        </span>
        <span className="muted numeric">{formatDuration(step.durationMs)}</span>
      </header>

      {step.decision === 'denied' ? (
        <div className="trace-denial">
          <p>
            <strong>Denied</strong>
            {step.code !== undefined ? <span className="status-code failed"> HTTP {step.code}</span> : null}
          </p>
          {step.message !== undefined ? <p className="trace-message">{step.message}</p> : null}
          {step.rule !== undefined ? (
            <p>
              Rule that fired: <code>{step.rule}</code>
            </p>
          ) : null}
        </div>
      ) : null}
      {step.decision === 'error' && step.message !== undefined ? (
        <p className="trace-message">
          {step.message}
          {step.code !== undefined ? ` (HTTP ${step.code})` : ''}
        </p>
      ) : null}
      {step.reason !== undefined ? (
        <p className={step.decision === 'skipped' ? 'muted' : undefined}>
          {step.decision === 'skipped' ? 'Not consulted: ' : 'Reason: '}
          {step.reason}
        </p>
      ) : null}

      {facts.length > 0 ? (
        <dl className="trace-facts">
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}

      {step.warnings !== undefined && step.warnings.length > 0 ? (
        <div className="warnings" role="note" aria-label={`Warnings added by ${step.name}`}>
          <strong>Warning{step.warnings.length === 1 ? '' : 's'} added</strong>
          <ul>
            {step.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {step.annotations !== undefined && Object.keys(step.annotations).length > 0 ? (
        <table className="trace-annotations">
          <caption>Audit annotations added</caption>
          <tbody>
            {Object.entries(step.annotations).map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      {step.patch !== undefined && step.patch.length > 0 ? <PatchTable ops={step.patch} /> : null}
      {step.before !== undefined && after !== undefined ? (
        <details className="trace-fold" open>
          <summary>What it changed (YAML diff)</summary>
          <LineDiffView
            before={toYaml(step.before)}
            after={toYaml(after)}
            label={`Object before and after ${step.name}`}
          />
        </details>
      ) : null}

      {step.review !== undefined ? (
        <>
          <details className="trace-fold">
            <summary>AdmissionReview sent</summary>
            <CodeBlock
              text={JSON.stringify(step.review.request, null, 2)}
              label={`AdmissionReview sent to ${step.name}`}
            />
          </details>
          <details className="trace-fold">
            <summary>AdmissionReview received</summary>
            <CodeBlock
              text={
                step.review.response !== undefined
                  ? JSON.stringify(step.review.response, null, 2)
                  : (step.review.responseText ?? '(no answer)')
              }
              label={`Answer from ${step.name}`}
            />
          </details>
        </>
      ) : null}
    </article>
  );
}

function PatchTable({ ops }: { ops: readonly JsonPatchOperation[] }) {
  return (
    <table className="trace-patch">
      <caption>
        JSON patch ({ops.length} operation{ops.length === 1 ? '' : 's'})
      </caption>
      <thead>
        <tr>
          <th scope="col">op</th>
          <th scope="col">path</th>
          <th scope="col">value</th>
        </tr>
      </thead>
      <tbody>
        {ops.map((op, i) => (
          <tr key={i} className={`patch-${op.op}`}>
            <td>{op.op}</td>
            <td>
              <code>{op.from !== undefined ? `${op.from} → ${op.path}` : op.path}</code>
            </td>
            <td>
              <code>{op.value === undefined ? '' : JSON.stringify(op.value)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
