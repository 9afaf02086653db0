/**
 * The admission chain: mutating plugins run in order, each seeing the
 * previous one's result; validating plugins then all run on the final
 * object. The server's write pipeline calls the two halves as stages.
 */

import type { KubeObject } from '../api/meta';
import type { AdmissionAttributes, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from './types';

export class AdmissionChain {
  constructor(
    private readonly mutating: readonly MutatingAdmissionPlugin[],
    private readonly validating: readonly ValidatingAdmissionPlugin[],
  ) {}

  async mutate(attributes: AdmissionAttributes): Promise<KubeObject | undefined> {
    let object = attributes.object;
    for (const plugin of this.mutating) {
      const result = await plugin.admit({ ...attributes, object });
      if (result !== undefined) object = result;
    }
    return object;
  }

  async validate(attributes: AdmissionAttributes): Promise<void> {
    for (const plugin of this.validating) await plugin.validate(attributes);
  }
}
