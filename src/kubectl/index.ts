/**
 * kubectl written over `src/client`: `runKubectl(args, io)` runs one
 * command line (the words after `kubectl`) against whatever the host's
 * `KubectlIO` reaches and returns kubectl's exit code. The Node front end
 * (`npm run kubectl`) and the Terminal view both call it.
 */

import { execute } from './command';
import type { KubectlIO } from './io';
import { rootCommand } from './cmd/root';

export type { KubectlIO, RequestRecord, KubectlFiles, KubeconfigSource } from './io';
export type { KubeConfig, Connection } from './config/kubeconfig';
export { configFrom, mergeConfigs, emptyConfig } from './config/kubeconfig';
export { splitWords, ShellSyntaxError } from './shell/words';

export function runKubectl(args: string[], io: KubectlIO): Promise<number> {
  return execute(rootCommand, args, io);
}
