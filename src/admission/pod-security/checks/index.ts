/**
 * Every Pod Security check of v1.27, in the order the real library
 * registers them (its source files' order), which is the order violations
 * are listed in a message: baseline checks first, then restricted ones.
 */

import { allowPrivilegeEscalationCheck } from './privilege-escalation';
import { appArmorProfileCheck } from './app-armor';
import { capabilitiesBaselineCheck, capabilitiesRestrictedCheck } from './capabilities';
import { hostNamespacesCheck } from './host-namespaces';
import { hostPathVolumesCheck } from './host-path';
import { hostPortsCheck } from './host-ports';
import { privilegedCheck } from './privileged';
import { procMountCheck } from './proc-mount';
import { restrictedVolumesCheck } from './volume-types';
import { runAsNonRootCheck } from './run-as-non-root';
import { runAsUserCheck } from './run-as-user';
import { seLinuxOptionsCheck } from './selinux';
import { seccompBaselineCheck, seccompRestrictedCheck } from './seccomp';
import { sysctlsCheck } from './sysctls';
import { windowsHostProcessCheck } from './windows-host-process';
import type { Check } from './types';

export const defaultChecks: readonly Check[] = [
  allowPrivilegeEscalationCheck,
  appArmorProfileCheck,
  capabilitiesBaselineCheck,
  capabilitiesRestrictedCheck,
  hostNamespacesCheck,
  hostPathVolumesCheck,
  hostPortsCheck,
  privilegedCheck,
  procMountCheck,
  restrictedVolumesCheck,
  runAsNonRootCheck,
  runAsUserCheck,
  seLinuxOptionsCheck,
  seccompBaselineCheck,
  seccompRestrictedCheck,
  sysctlsCheck,
  windowsHostProcessCheck,
];

export type { Check, CheckResult } from './types';
