/**
 * CEL environments: a base environment per configuration (the engine's
 * standard library plus our fixes, the strings extension and the Kubernetes
 * libraries), from which each schema, admission configuration or test
 * derives its own with its variables and types. Building the base is the
 * expensive part, so the Kubernetes one is built once and shared.
 */

import { library, parseProgram, type Environment, type LibType } from './engine';
import { LIST_CREATE_BASE_COST } from './cost';
import type { InstrumentOptions } from './instrument';
import {
  overrides,
  registerKubernetesLibraries,
  registerStandardFixes,
  registerStringsExtension,
} from './library';

export interface CelEnvironment {
  readonly engine: Environment;
  readonly instrument: InstrumentOptions;
  /** Reject engine extras Kubernetes v1.27 does not offer (bytes `json()`/`hex()`/`base64()`/`at()`/`string()`, `cel.bind`). */
  readonly kubernetesOnly: boolean;
  readonly types: { dyn: LibType; listOfDyn: LibType };
}

export interface BaseOptions {
  /** Kubernetes enables `HomogeneousAggregateLiterals`: `[1, 'a']` does not compile. Default true. */
  homogeneousAggregateLiterals?: boolean;
  /** Restrict to what Kubernetes offers. Default true. */
  kubernetesOnly?: boolean;
}

let kubernetesBase: CelEnvironment | undefined;

/** The base environment; with default options, the shared Kubernetes one. */
export function baseEnvironment(options: BaseOptions = {}): CelEnvironment {
  const homogeneous = options.homogeneousAggregateLiterals ?? true;
  const kubernetesOnly = options.kubernetesOnly ?? true;
  if (homogeneous && kubernetesOnly && kubernetesBase !== undefined) return kubernetesBase;
  const engine = new (library().Environment)({
    homogeneousAggregateLiterals: homogeneous,
    unlistedVariablesAreDyn: false,
    enableOptionalTypes: false,
  });
  registerStandardFixes(engine);
  registerStringsExtension(engine);
  registerKubernetesLibraries(engine);
  const env: CelEnvironment = {
    engine,
    instrument: { overrides: overrides(), listCreateCost: LIST_CREATE_BASE_COST },
    kubernetesOnly,
    types: probeTypes(engine),
  };
  if (homogeneous && kubernetesOnly) kubernetesBase = env;
  return env;
}

/** An environment derived from `base` with more declarations (variables, object types, functions). */
export function deriveEnvironment(
  base: CelEnvironment,
  declare: (engine: Environment) => void,
): CelEnvironment {
  const engine = base.engine.clone();
  declare(engine);
  return { ...base, engine };
}

/** The engine has no public type lookup; checking two tiny programs yields the type objects we assign to nodes. */
function probeTypes(engine: Environment): CelEnvironment['types'] {
  const list = parseProgram(engine, '[dyn(0)]');
  list.check();
  const listOfDyn = list.ast.checkedType!;
  return { dyn: listOfDyn.valueType!, listOfDyn };
}
