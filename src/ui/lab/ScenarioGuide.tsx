/**
 * The guided scenario: the rule it demonstrates (in the spec's words) and
 * its steps, each with a button that performs it and, once run, whether
 * the server answered as the rule says.
 */

import type { Scenario } from './scenarios';
import type { StepOutcome } from './lab-state';

interface Props {
  scenario: Scenario;
  outcomes: (StepOutcome | undefined)[];
  busy: boolean;
  onRun: (index: number) => void;
}

export function ScenarioGuide({ scenario, outcomes, busy, onRun }: Props) {
  const next = outcomes.findIndex((o) => o === undefined);
  return (
    <section className="scenario-guide" aria-label="Scenario steps">
      <p className="rule">{scenario.rule}</p>
      <ol className="steps">
        {scenario.steps.map((step, index) => {
          const outcome = outcomes[index];
          return (
            <li key={index} className={outcome === undefined ? '' : outcome.passed ? 'passed' : 'failed'}>
              <div className="step-line">
                <button
                  type="button"
                  className={index === next ? '' : 'secondary'}
                  disabled={busy}
                  onClick={() => onRun(index)}
                >
                  Step {index + 1}: {step.manager} {step.force === true ? 'force-applies' : 'applies'}
                </button>
                <span className="muted">expect {step.expect === 'ok' ? 'success' : '409 conflict'}</span>
              </div>
              <p>{step.note}</p>
              {outcome !== undefined ? (
                <p className={outcome.passed ? 'success' : 'error-text'} role="status">
                  {outcome.passed ? '✓ ' : '✗ '}
                  {outcome.text}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
