/**
 * What the trace view reads out of an admission trace record, kept free of
 * React so it can be tested alone: the Audit-Id of a logged answer, the
 * chain's stages as the diagram draws them (mutating plugins → mutating
 * webhooks per round → validating plugins, policies and webhooks, in the
 * order they ran), and one-line summaries for lists.
 */

import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { JsonObject } from '../../api/meta';
import type {
  AdmissionDecision,
  AdmissionTracePass,
  AdmissionTraceRecord,
  AdmissionTraceStep,
} from '../../api/admission-trace';

import { auditIdOf } from './audit-id';

export { auditIdOf, isWrite } from './audit-id';

export interface StageStep {
  step: AdmissionTraceStep;
  /** The step's place in its pass (for its element id and number). */
  index: number;
}

/** A run of consecutive steps of the same kind: one box of the diagram. */
export interface Stage {
  key: string;
  label: string;
  phase: AdmissionTraceStep['phase'];
  steps: StageStep[];
}

function stageLabel(step: AdmissionTraceStep): string {
  const round = step.round ?? 0;
  if (step.phase === 'mutating') {
    if (step.type === 'webhook') return `Mutating webhooks, round ${round + 1}`;
    return round > 0 ? 'Mutating plugins, reinvoked' : 'Mutating plugins';
  }
  if (step.type === 'webhook') return 'Validating webhooks';
  if (step.type === 'policy') return 'Admission policies';
  return 'Validating plugins';
}

/** The steps grouped into the diagram's stages, in the order they ran. */
export function stagesOf(steps: readonly AdmissionTraceStep[]): Stage[] {
  const stages: Stage[] = [];
  steps.forEach((step, index) => {
    const label = stageLabel(step);
    const last = stages[stages.length - 1];
    if (last !== undefined && last.label === label) last.steps.push({ step, index });
    else
      stages.push({ key: `${stages.length}-${label}`, label, phase: step.phase, steps: [{ step, index }] });
  });
  return stages;
}

export const decisionLabels: Record<AdmissionDecision, string> = {
  allowed: 'allowed',
  patched: 'changed the object',
  denied: 'denied',
  skipped: 'skipped',
  error: 'failed (ignored)',
};

export function isDryRun(record: AdmissionTraceRecord): boolean {
  return record.passes.some((p) => p.dryRun) || /[?&]dryRun=/.test(record.path);
}

/** The step that refused the request, if one did. */
export function deniedStep(record: AdmissionTraceRecord): AdmissionTraceStep | undefined {
  return record.steps.find((s) => s.decision === 'denied');
}

/** `CREATE pods default/web` — what one pass was about. */
export function passTitle(pass: AdmissionTracePass): string {
  const resource = [pass.group === '' ? pass.resource : `${pass.resource}.${pass.group}`, pass.subresource]
    .filter((part) => part !== '')
    .join('/');
  const object = pass.namespace === '' ? pass.name : `${pass.namespace}/${pass.name}`;
  return `${pass.operation} ${resource}${object === '' ? '' : ` ${object}`}`;
}

/** Milliseconds as the trace shows them: sub-millisecond steps are common. */
export function formatDuration(ms: number): string {
  // Browsers coarsen timers to 0.1 ms (or more): below that, "0.00 ms" would claim a precision there is not.
  if (ms < 0.1) return '< 0.1 ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** The DOM id of a step's card (the diagram's nodes move focus there). */
export function stepElementId(passIndex: number, stepIndex: number): string {
  return `trace-step-${passIndex}-${stepIndex}`;
}

/** Records newest first, one per Audit-Id, a fresher copy replacing an older one. */
export function mergeRecords(
  known: readonly AdmissionTraceRecord[],
  incoming: readonly AdmissionTraceRecord[],
  limit = 200,
): AdmissionTraceRecord[] {
  const byId = new Map<string, AdmissionTraceRecord>();
  for (const r of [...known, ...incoming]) byId.set(r.auditId, r);
  return [...byId.values()].sort((a, b) => b.received.localeCompare(a.received)).slice(0, limit);
}

/**
 * The Audit-Id of the newest logged answer to `method path` that was not a
 * dry run: how a view that kept only the answer's body (the editor's write
 * result) finds the trace of the write it just sent.
 */
export function latestWriteAuditId(
  entries: readonly { method: string; path: string; responseHeaders?: [string, string][] }[],
  method: string,
  path: string,
): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry === undefined || entry.method !== method) continue;
    const [bare = '', query = ''] = entry.path.split('?');
    if (bare !== path || new URLSearchParams(query).has('dryRun')) continue;
    const id = auditIdOf(entry.responseHeaders);
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * The object after a mutating step, as its patch says. The patch was
 * computed when the step ran; the recorded `after` may be the very object
 * the server went on to change (uid, creationTimestamp), so the patch
 * applied to `before` is the faithful picture. Falls back to `after`.
 */
export function afterOf(step: AdmissionTraceStep): JsonObject | undefined {
  if (step.before === undefined || step.patch === undefined) return step.after;
  try {
    const applied = fastJsonPatch.applyPatch(
      structuredClone(step.before),
      step.patch as Operation[],
      false,
      false,
    );
    return applied.newDocument;
  } catch {
    return step.after;
  }
}
