/**
 * Command-line flags of `npm run serve`, parsed the way the real
 * kube-apiserver's flag library (spf13/pflag) parses them, so a command
 * line written for a v1.27 kube-apiserver means the same thing here:
 * `--name=value` or `--name value`, booleans as `--name` or `--name=false`
 * (never consuming the next word), comma-separated lists that also repeat,
 * Go durations (`5m`, `30s`, `1h30m`, `250ms`). Bad values fail with the
 * real server's messages (`invalid argument "x" for "--flag" flag: ...`,
 * validation errors such as `oidc-issuer-url and oidc-client-id should be
 * specified together`), which `main.ts` prints after `Error: ` and answers
 * with exit code 1, as `kube-apiserver` does. Files the authentication
 * flags name are read here and handed to the core as contents.
 *
 * Each option group (options/: serving, authentication, authorization,
 * admission, etcd, service accounts, feature gates, audit, …) declares its
 * flags and parses and validates them, as the real server's option groups
 * do; this module puts the table together and runs the groups in the real
 * server's order, aggregating their validation errors as Go does.
 */

import { clusterSigningFlagKinds, clusterSigningOf } from './options/cluster-signing';
import type { NodeHostOptions } from './host';
import { admissionFlags, admissionOf } from './options/admission';
import { apiEnablementFlags, apiEnablementOf } from './options/api-enablement';
import { auditFlags, auditOf } from './options/audit';
import { authenticationFlags, authenticationOf } from './options/authentication';
import { authorizationFlags, authorizationOf } from './options/authorization';
import { etcdFlags, etcdOf } from './options/etcd';
import { featureGateFlags, featureGatesOf } from './options/feature-gates';
import { FlagError, readFlagFile, readUtf8, scan, type FlagDecl, type ReadFile } from './options/flags';
import { leaderElectionFlags, leaderElectionOf } from './options/leader-election';
import { lifecycleFlags, lifecycleOf } from './options/lifecycle';
import { compactionIntervalOf, sandboxFlags, sandboxOf } from './options/sandbox';
import { servicesFlags, servicesOf } from './options/services';
import { servingFlags, servingOf } from './options/serving';
import { simulationFlags, simulationOf } from './options/simulation';
import { serviceAccountTokenFlagKinds, serviceAccountTokensOf } from './options/service-account-tokens';

export { CommandFailed, FlagError, HelpRequested, type ReadFile } from './options/flags';
export { parseFeatureGates } from './options/feature-gates';

/** Every flag the host knows, by option group. */
const flagKinds = {
  ...servingFlags,
  ...sandboxFlags,
  ...apiEnablementFlags,
  ...featureGateFlags,
  ...etcdFlags,
  ...leaderElectionFlags,
  ...simulationFlags,
  ...authenticationFlags,
  ...serviceAccountTokenFlagKinds,
  ...authorizationFlags,
  ...admissionFlags,
  ...servicesFlags,
  ...lifecycleFlags,
  ...auditFlags,
  // Certificate signing (kube-controller-manager's flags; the controllers run in this process).
  ...clusterSigningFlagKinds,
} as const satisfies Record<string, FlagDecl>;

/** The flag table as data, for `--help` (see flag-help.ts). */
export const hostFlags: Readonly<Record<string, FlagDecl>> = flagKinds;

/**
 * Parses the host's command line. Throws `FlagError` with the real server's
 * message; `warn` receives what the real server logs as a warning and goes on.
 */
export function parseHostArgs(
  argv: string[],
  read: ReadFile = readUtf8,
  warn: (message: string) => void = () => undefined,
): NodeHostOptions {
  const raw = scan(argv, flagKinds);
  const options: NodeHostOptions = {};
  servingOf(raw, read, options);
  sandboxOf(raw, options);
  etcdOf(raw, options);
  apiEnablementOf(raw, options);
  featureGatesOf(raw, options, warn);
  compactionIntervalOf(raw, options);

  const modes = raw.lists['authorization-mode'];
  const errors: string[] = authorizationOf(raw, options);
  const authn = authenticationOf(raw, read, warn, modes);
  errors.push(...authn.errors);
  errors.push(...admissionOf(raw, read, options));
  const saTokens = serviceAccountTokensOf(
    raw,
    (path, context) => readFlagFile(read, path, context),
    (message) => new FlagError(message),
    warn,
  );
  if (saTokens.options !== undefined) options.serviceAccountTokens = saTokens.options;
  errors.push(...saTokens.errors);
  auditOf(raw, read, options, warn);
  errors.push(...servicesOf(raw, options));
  errors.push(...leaderElectionOf(raw, options));
  errors.push(...lifecycleOf(raw, options));
  simulationOf(raw, options);
  const signing = clusterSigningOf(
    raw.strings,
    (path, context) => readFlagFile(read, path, context),
    (message) => new FlagError(message),
  );
  if (signing.options !== undefined) options.clusterSigning = signing.options;
  errors.push(...signing.errors);
  if (authn.config !== undefined) options.authentication = authn.config;
  // Go's utilerrors.Aggregate: one error as itself, several in brackets.
  if (errors.length === 1) throw new FlagError(errors[0]);
  if (errors.length > 1) throw new FlagError(`[${errors.join(', ')}]`);
  return options;
}
