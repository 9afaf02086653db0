/**
 * The admission chain: every enabled plugin in the real server's order,
 * first their mutating halves (each seeing the previous one's result, run a
 * second time when a webhook asks for reinvocation), then their validating
 * halves on the final object. Each step is timed for the metrics and
 * recorded in the request's trace with what it changed, warned and
 * annotated; webhooks and policies record their own finer steps.
 */

import type { AdmissionTraceStep, JsonPatchOperation } from '../api/admission-trace';
import type { JsonObject, KubeObject } from '../api/meta';
import { StatusError, toStatusError } from '../machinery/errors';
import { jsonPatchLibrary } from '../machinery/json-patch-library';
import { onceAsync } from '../machinery/once-async';
import { noAdmissionMetrics, type AdmissionMetrics } from './metrics';
import type { AdmissionAttributes, AdmissionPlugin, ReinvocationContext } from './types';

export class AdmissionChain {
  private readonly mutating: readonly AdmissionPlugin[];
  private readonly validating: readonly AdmissionPlugin[];

  constructor(
    readonly plugins: readonly AdmissionPlugin[],
    private readonly metrics: AdmissionMetrics = noAdmissionMetrics,
  ) {
    this.mutating = plugins.filter((p) => p.admit !== undefined);
    this.validating = plugins.filter((p) => p.validate !== undefined);
  }

  /** The enabled plugins' names, in order. */
  get names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  async mutate(attributes: AdmissionAttributes): Promise<KubeObject | undefined> {
    attributes.trace?.begin({
      operation: attributes.operation,
      group: attributes.requestResource?.group ?? attributes.group,
      version: attributes.requestResource?.version ?? attributes.version,
      resource: attributes.requestResource?.resource ?? attributes.resource,
      subresource: attributes.subresource,
      namespace: attributes.namespace,
      name: attributes.name,
      dryRun: attributes.dryRun,
    });
    const reinvocation: ReinvocationContext = { isReinvoke: false, shouldReinvoke: false, values: new Map() };
    const started = performance.now();
    let rejected = true;
    try {
      let object = await this.mutatePass({ ...attributes, reinvocation }, 0);
      if (reinvocation.shouldReinvoke) {
        reinvocation.isReinvoke = true;
        object = await this.mutatePass({ ...attributes, object, reinvocation }, 1);
      }
      rejected = false;
      return object;
    } finally {
      this.metrics.observeStep(
        { operation: attributes.operation, rejected, type: 'admit' },
        (performance.now() - started) / 1000,
      );
    }
  }

  async validate(attributes: AdmissionAttributes): Promise<void> {
    const started = performance.now();
    let rejected = true;
    try {
      for (const plugin of this.validating) {
        if (!handles(plugin, attributes)) continue;
        await this.run(plugin, 'validating', attributes, 0);
      }
      rejected = false;
    } finally {
      this.metrics.observeStep(
        { operation: attributes.operation, rejected, type: 'validate' },
        (performance.now() - started) / 1000,
      );
    }
  }

  private async mutatePass(attributes: AdmissionAttributes, round: number): Promise<KubeObject | undefined> {
    let object = attributes.object;
    // Each plugin sees the object as the previous ones left it; the attributes are copied only when one of
    // them changed it (no plugin writes to its attributes).
    let current = attributes;
    for (const plugin of this.mutating) {
      if (!handles(plugin, attributes)) continue;
      if (current.object !== object) current = { ...attributes, object };
      const result = await this.run(plugin, 'mutating', current, round);
      if (result !== undefined) object = result;
    }
    return object;
  }

  /** Runs one plugin's half, timing it and recording its step. */
  private async run(
    plugin: AdmissionPlugin,
    phase: 'mutating' | 'validating',
    a: AdmissionAttributes,
    round: number,
  ): Promise<KubeObject | undefined> {
    const warningsBefore = a.warnings?.length ?? 0;
    const annotationsBefore = a.annotations?.mark();
    const started = performance.now();
    const type = phase === 'mutating' ? 'admit' : 'validate';
    let result: KubeObject | undefined;
    try {
      if (phase === 'mutating') result = await plugin.admit?.(a);
      else await plugin.validate?.(a);
    } catch (e) {
      const durationMs = performance.now() - started;
      this.metrics.observeController(
        { name: plugin.name, operation: a.operation, rejected: true, type },
        durationMs / 1000,
      );
      const err = e instanceof StatusError ? e : toStatusError(e);
      if (!plugin.recordsOwnSteps)
        a.trace?.record(
          withAdded(
            {
              name: plugin.name,
              type: 'plugin',
              phase,
              decision: 'denied',
              message: err.status.message ?? '',
              code: err.status.code ?? 500,
              durationMs,
              round,
            },
            a,
            warningsBefore,
            annotationsBefore,
          ),
        );
      throw e;
    }
    const durationMs = performance.now() - started;
    this.metrics.observeController(
      { name: plugin.name, operation: a.operation, rejected: false, type },
      durationMs / 1000,
    );
    if (plugin.recordsOwnSteps || a.trace === undefined) return result;
    const step = withAdded(
      { name: plugin.name, type: 'plugin', phase, decision: 'allowed', durationMs, round },
      a,
      warningsBefore,
      annotationsBefore,
    );
    if (result !== undefined && result !== a.object) {
      const before = (a.object ?? {}) as JsonObject;
      const after = result as JsonObject;
      // The trace shows the change as a JSON patch: the library is loaded with the first change to show.
      const { compare } = await jsonPatchLibrary.load();
      const patch = compare(before, after) as JsonPatchOperation[];
      // Copies: the store goes on changing the object (uid, timestamps) after admission.
      if (patch.length > 0)
        Object.assign(step, {
          decision: 'patched',
          patch,
          before: structuredClone(before),
          after: structuredClone(after),
        });
    }
    a.trace.record(step);
    return result;
  }
}

function handles(plugin: AdmissionPlugin, a: AdmissionAttributes): boolean {
  return plugin.operations === undefined || plugin.operations.includes(a.operation);
}

/**
 * The step with the warnings and annotations it added, set on it after its other keys (in the order a spread
 * gave them before): a spread of a new object made a copy per step, some twenty per create.
 */
function withAdded(
  step: AdmissionTraceStep,
  a: AdmissionAttributes,
  warningsBefore: number,
  annotationsBefore: number | undefined,
): AdmissionTraceStep {
  if (a.warnings !== undefined && a.warnings.length > warningsBefore)
    step.warnings = a.warnings.all().slice(warningsBefore);
  // Only added during a step (no attempt begins inside one): what came after the mark is what it added.
  if (
    a.annotations !== undefined &&
    annotationsBefore !== undefined &&
    a.annotations.mark() > annotationsBefore
  )
    step.annotations = a.annotations.addedSince(annotationsBefore);
  return step;
}

/**
 * A chain whose plugins are still loading (admission/build.ts: plugins in a lazy script a caller did not await):
 * its names are known now, and every admission waits for the chain to be built. Given a function, the loading
 * starts with the first admission (decision 0122); once built, admissions go to the chain without waiting.
 */
export class DeferredAdmissionChain extends AdmissionChain {
  /** The chain once built; a failed load is tried again by the next admission (LazyModule retries). */
  private readonly ready: () => Promise<AdmissionChain>;
  private built: AdmissionChain | undefined;

  constructor(
    private readonly pluginNames: readonly string[],
    chain: Promise<AdmissionChain> | (() => Promise<AdmissionChain>),
    metrics: AdmissionMetrics = noAdmissionMetrics,
  ) {
    super([], metrics);
    const start = typeof chain === 'function' ? chain : () => chain;
    // Failures reach the requests that wait for it; onceAsync leaves none unhandled meanwhile.
    this.ready = onceAsync(() => start().then((built) => (this.built = built)));
    if (typeof chain !== 'function') void this.ready();
  }

  override get names(): string[] {
    return [...this.pluginNames];
  }

  override mutate(attributes: AdmissionAttributes): Promise<KubeObject | undefined> {
    return this.built !== undefined
      ? this.built.mutate(attributes)
      : this.ready().then((chain) => chain.mutate(attributes));
  }

  override validate(attributes: AdmissionAttributes): Promise<void> {
    return this.built !== undefined
      ? this.built.validate(attributes)
      : this.ready().then((chain) => chain.validate(attributes));
  }
}
