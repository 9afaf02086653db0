/**
 * The admission chain of one pass as a diagram: a row of stages (mutating
 * plugins → mutating webhooks per round → validating plugins, policies,
 * webhooks) in the order they ran, each a list of its steps. A node shows
 * the step's name, decision and time; skipped steps are dimmed with their
 * reason, the denying one stands out. Each node is a button that moves
 * focus to the step's details below, so the diagram is also the keyboard
 * index of the trace.
 */

import type { AdmissionTraceStep } from '../../api/admission-trace';
import { decisionLabels, formatDuration, stagesOf, stepElementId } from './trace-model';

const decisionMarks: Record<AdmissionTraceStep['decision'], string> = {
  allowed: '✓',
  patched: '±',
  denied: '✕',
  skipped: '–',
  error: '!',
};

export function ChainDiagram({
  steps,
  passIndex,
}: {
  steps: readonly AdmissionTraceStep[];
  passIndex: number;
}) {
  const stages = stagesOf(steps);
  if (stages.length === 0)
    return <p className="muted">No admission step ran (no enabled plugin handles this operation).</p>;
  const reveal = (index: number) => {
    const target = document.getElementById(stepElementId(passIndex, index));
    if (target === null) return;
    if (target instanceof HTMLDetailsElement) target.open = true;
    target.scrollIntoView({ block: 'nearest' });
    target.focus();
  };
  return (
    <ol className="trace-chain" aria-label="Admission chain, in the order it ran">
      {stages.map((stage) => (
        <li key={stage.key} className={`trace-stage trace-stage-${stage.phase}`}>
          <h4 className="trace-stage-label">{stage.label}</h4>
          <ol className="trace-nodes">
            {stage.steps.map(({ step, index }) => (
              <li key={index}>
                <button
                  type="button"
                  className={`trace-node decision-${step.decision}`}
                  onClick={() => reveal(index)}
                  aria-label={`${index + 1}. ${step.name}: ${decisionLabels[step.decision]}${
                    step.reason !== undefined ? ` (${step.reason})` : ''
                  }, ${formatDuration(step.durationMs)}. Show details`}
                >
                  <span className="trace-node-mark" aria-hidden="true">
                    {decisionMarks[step.decision]}
                  </span>
                  <span className="trace-node-name">{step.name}</span>
                  <span className="trace-node-meta">
                    {decisionLabels[step.decision]} · {formatDuration(step.durationMs)}
                  </span>
                  {step.decision === 'skipped' && step.reason !== undefined ? (
                    <span className="trace-node-reason">{step.reason}</span>
                  ) : null}
                  {step.decision === 'denied' && step.code !== undefined ? (
                    <span className="trace-node-reason">HTTP {step.code}</span>
                  ) : null}
                </button>
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}
