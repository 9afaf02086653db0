/**
 * The feature gates of the workshop settings: every gate a v1.27
 * kube-apiserver knows, with its stage and default, filterable by name or
 * stage. A gate locked to its default (GA) is shown but cannot be changed;
 * the server refuses such a change anyway, with the real message.
 */

import { useState } from 'react';
import { featureGateSpecs, type FeatureStage } from '../../machinery/feature-gate-list';

const stageFilters: (FeatureStage | 'all' | 'changed')[] = ['all', 'changed', 'ALPHA', 'BETA', 'GA'];

export function FeatureGatesFieldset({
  gates,
  onChange,
}: {
  gates: Readonly<Record<string, boolean>>;
  onChange: (gate: string, on: boolean) => void;
}) {
  const [text, setText] = useState('');
  const [stage, setStage] = useState<(typeof stageFilters)[number]>('all');
  const needle = text.trim().toLowerCase();
  const shown = featureGateSpecs.filter(
    (s) =>
      (needle === '' || s.name.toLowerCase().includes(needle)) &&
      (stage === 'all' ||
        (stage === 'changed' ? (gates[s.name] ?? s.default) !== s.default : s.stage === stage)),
  );
  return (
    <fieldset>
      <legend>Feature gates</legend>
      <p className="muted">
        The {featureGateSpecs.length} gates of a v1.27 kube-apiserver (<code>--feature-gates</code>). A change
        applies to the next request; a gate that installs resources (e.g. ValidatingAdmissionPolicy,
        APISelfSubjectReview) serves them once their API version is on too. Locked GA gates cannot be turned
        off.
      </p>
      <div className="row">
        <label>
          Filter{' '}
          <input value={text} size={20} onChange={(e) => setText(e.target.value)} aria-label="Filter gates" />
        </label>
        <label>
          Stage{' '}
          <select value={stage} onChange={(e) => setStage(e.target.value as (typeof stageFilters)[number])}>
            {stageFilters.map((s) => (
              <option key={s} value={s}>
                {s === 'changed' ? 'changed from default' : s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ul className="gate-list" aria-label="Feature gates">
        {shown.map((spec) => {
          const on = gates[spec.name] ?? spec.default;
          return (
            <li key={spec.name}>
              <label className="inline">
                <input
                  type="checkbox"
                  checked={on}
                  disabled={spec.lockToDefault}
                  onChange={(e) => onChange(spec.name, e.target.checked)}
                />{' '}
                {spec.name}
              </label>{' '}
              <span className="muted">
                {spec.stage} · default {spec.default ? 'on' : 'off'}
                {spec.lockToDefault ? ' · locked' : ''}
              </span>
            </li>
          );
        })}
      </ul>
      {shown.length === 0 ? <p className="muted">No gate matches.</p> : null}
    </fieldset>
  );
}
