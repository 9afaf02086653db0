/**
 * Every feature gate a v1.27 kube-apiserver knows, as data: the Kubernetes
 * gates (pkg/features), the generic API server's (k8s.io/apiserver), the
 * component-base ones the binary registers (logging, SLIs) and the two
 * automatic gates `AllAlpha`/`AllBeta`. Each has its stage, its default and
 * whether it is locked to that default (a GA gate that can no longer be
 * turned off). Values are those of the last v1.27 patch release.
 */

export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureGateSpec {
  name: string;
  stage: FeatureStage;
  default: boolean;
  lockToDefault: boolean;
  /** Which part of the binary declares it (shown in the workshop settings). */
  source: 'kubernetes' | 'apiserver' | 'component-base' | 'automatic';
}

type Row = readonly [name: string, stage: 'A' | 'B' | 'GA' | 'D', enabled: boolean, locked?: 'locked'];

const stages = { A: 'ALPHA', B: 'BETA', GA: 'GA', D: 'DEPRECATED' } as const;

const kubernetes: readonly Row[] = [
  ['AnyVolumeDataSource', 'B', true],
  ['APISelfSubjectReview', 'B', true],
  ['AppArmor', 'B', true],
  ['CloudControllerManagerWebhook', 'A', false],
  ['CloudDualStackNodeIPs', 'A', false],
  ['ClusterTrustBundle', 'A', false],
  ['ConsistentHTTPGetHandlers', 'GA', true],
  ['ContainerCheckpoint', 'A', false],
  ['CPUManager', 'GA', true, 'locked'],
  ['CPUManagerPolicyAlphaOptions', 'A', false],
  ['CPUManagerPolicyBetaOptions', 'B', true],
  ['CPUManagerPolicyOptions', 'B', true],
  ['CronJobTimeZone', 'GA', true, 'locked'],
  ['CrossNamespaceVolumeDataSource', 'A', false],
  ['CSIMigrationAzureFile', 'GA', true, 'locked'],
  ['CSIMigrationGCE', 'GA', true, 'locked'],
  ['CSIMigrationPortworx', 'B', false],
  ['CSIMigrationRBD', 'A', false],
  ['CSIMigrationvSphere', 'GA', true, 'locked'],
  ['CSINodeExpandSecret', 'B', true],
  ['CSIStorageCapacity', 'GA', true, 'locked'],
  ['CSIVolumeHealth', 'A', false],
  ['CustomCPUCFSQuotaPeriod', 'A', false],
  ['DelegateFSGroupToCSIDriver', 'GA', true, 'locked'],
  ['DevicePlugins', 'GA', true, 'locked'],
  ['DisableAcceleratorUsageMetrics', 'GA', true, 'locked'],
  ['DisableCloudProviders', 'A', false],
  ['DisableKubeletCloudCredentialProviders', 'A', false],
  ['DownwardAPIHugePages', 'GA', true, 'locked'],
  ['DynamicResourceAllocation', 'A', false],
  ['ElasticIndexedJob', 'B', true],
  ['EndpointSliceTerminatingCondition', 'GA', true, 'locked'],
  ['EventedPLEG', 'A', false],
  ['ExecProbeTimeout', 'GA', true],
  ['ExpandedDNSConfig', 'B', true],
  ['ExperimentalHostUserNamespaceDefaulting', 'B', false],
  ['GracefulNodeShutdown', 'B', true],
  ['GracefulNodeShutdownBasedOnPodPriority', 'B', true],
  ['GRPCContainerProbe', 'GA', true, 'locked'],
  ['HonorPVReclaimPolicy', 'A', false],
  ['HPAContainerMetrics', 'B', true],
  ['HPAScaleToZero', 'A', false],
  ['InPlacePodVerticalScaling', 'A', false],
  ['InTreePluginAWSUnregister', 'A', false],
  ['InTreePluginAzureDiskUnregister', 'A', false],
  ['InTreePluginAzureFileUnregister', 'A', false],
  ['InTreePluginGCEUnregister', 'A', false],
  ['InTreePluginOpenStackUnregister', 'A', false],
  ['InTreePluginPortworxUnregister', 'A', false],
  ['InTreePluginRBDUnregister', 'A', false],
  ['InTreePluginvSphereUnregister', 'A', false],
  ['IPTablesOwnershipCleanup', 'B', true],
  ['JobMutableNodeSchedulingDirectives', 'GA', true, 'locked'],
  ['JobPodFailurePolicy', 'B', true],
  ['JobReadyPods', 'B', true],
  ['JobTrackingWithFinalizers', 'GA', true, 'locked'],
  ['KubeletCredentialProviders', 'GA', true, 'locked'],
  ['KubeletInUserNamespace', 'A', false],
  ['KubeletPodResources', 'B', true],
  ['KubeletPodResourcesDynamicResources', 'A', false],
  ['KubeletPodResourcesGet', 'A', false],
  ['KubeletPodResourcesGetAllocatable', 'B', true],
  ['KubeletTracing', 'B', true],
  ['LegacyServiceAccountTokenNoAutoGeneration', 'GA', true, 'locked'],
  ['LegacyServiceAccountTokenTracking', 'B', true],
  ['LocalStorageCapacityIsolationFSQuotaMonitoring', 'A', false],
  ['LogarithmicScaleDown', 'B', true],
  ['MatchLabelKeysInPodTopologySpread', 'B', true],
  ['MaxUnavailableStatefulSet', 'A', false],
  ['MemoryManager', 'B', true],
  ['MemoryQoS', 'A', false],
  ['MinDomainsInPodTopologySpread', 'B', true],
  ['MinimizeIPTablesRestore', 'B', true],
  ['MixedProtocolLBService', 'GA', true, 'locked'],
  ['MultiCIDRRangeAllocator', 'A', false],
  ['MultiCIDRServiceAllocator', 'A', false],
  ['NetworkPolicyStatus', 'A', false],
  ['NewVolumeManagerReconstruction', 'B', false],
  ['NodeInclusionPolicyInPodTopologySpread', 'B', true],
  ['NodeLogQuery', 'A', false],
  ['NodeOutOfServiceVolumeDetach', 'B', true],
  ['NodeSwap', 'A', false],
  ['PDBUnhealthyPodEvictionPolicy', 'B', true],
  ['PodAndContainerStatsFromCRI', 'A', false],
  ['PodDeletionCost', 'B', true],
  ['PodDisruptionConditions', 'B', true],
  ['PodHasNetworkCondition', 'A', false],
  ['PodSchedulingReadiness', 'B', true],
  ['PodSecurity', 'GA', true, 'locked'],
  ['ProbeTerminationGracePeriod', 'B', true],
  ['ProcMountType', 'A', false],
  ['ProxyTerminatingEndpoints', 'B', true],
  ['QOSReserved', 'A', false],
  ['ReadWriteOncePod', 'B', true],
  ['RecoverVolumeExpansionFailure', 'A', false],
  ['RetroactiveDefaultStorageClass', 'B', true],
  ['RotateKubeletServerCertificate', 'B', true],
  ['SeccompDefault', 'GA', true, 'locked'],
  ['SecurityContextDeny', 'A', false],
  ['SELinuxMountReadWriteOncePod', 'B', false],
  ['ServiceInternalTrafficPolicy', 'GA', true, 'locked'],
  ['ServiceIPStaticSubrange', 'GA', true, 'locked'],
  ['ServiceNodePortStaticSubrange', 'A', false],
  ['SizeMemoryBackedVolumes', 'B', true],
  ['StableLoadBalancerNodeSet', 'B', true],
  ['StatefulSetAutoDeletePVC', 'B', true],
  ['StatefulSetStartOrdinal', 'B', true],
  ['TopologyAwareHints', 'B', true],
  ['TopologyManager', 'GA', true, 'locked'],
  ['TopologyManagerPolicyAlphaOptions', 'A', false],
  ['TopologyManagerPolicyBetaOptions', 'B', false],
  ['TopologyManagerPolicyOptions', 'A', false],
  ['UserNamespacesStatelessPodsSupport', 'A', false],
  ['VolumeCapacityPriority', 'A', false],
  ['WinDSR', 'A', false],
  ['WindowsHostNetwork', 'A', true],
  ['WindowsHostProcessContainers', 'GA', true, 'locked'],
  ['WinOverlay', 'B', true],
];

const apiserver: readonly Row[] = [
  ['AdmissionWebhookMatchConditions', 'A', false],
  ['AdvancedAuditing', 'GA', true, 'locked'],
  ['AggregatedDiscoveryEndpoint', 'B', true],
  ['APIListChunking', 'B', true],
  ['APIPriorityAndFairness', 'B', true],
  ['APIResponseCompression', 'B', true],
  ['APIServerIdentity', 'B', true],
  ['APIServerTracing', 'B', true],
  ['CustomResourceValidationExpressions', 'B', true],
  ['DryRun', 'GA', true, 'locked'],
  ['EfficientWatchResumption', 'GA', true, 'locked'],
  ['KMSv2', 'B', true],
  ['OpenAPIEnums', 'B', true],
  ['OpenAPIV3', 'GA', true, 'locked'],
  ['RemainingItemCount', 'B', true],
  ['RemoveSelfLink', 'GA', true, 'locked'],
  ['ServerSideApply', 'GA', true, 'locked'],
  ['ServerSideFieldValidation', 'GA', true, 'locked'],
  ['StorageVersionAPI', 'A', false],
  ['StorageVersionHash', 'B', true],
  ['UnauthenticatedHTTP2DOSMitigation', 'B', false],
  ['ValidatingAdmissionPolicy', 'A', false],
  ['WatchBookmark', 'GA', true, 'locked'],
  ['WatchList', 'A', false],
];

const componentBase: readonly Row[] = [
  ['ComponentSLIs', 'B', true],
  ['ContextualLogging', 'A', false],
  ['LoggingAlphaOptions', 'A', false],
  ['LoggingBetaOptions', 'B', true],
];

const automatic: readonly Row[] = [
  ['AllAlpha', 'A', false],
  ['AllBeta', 'B', false],
];

function specs(rows: readonly Row[], source: FeatureGateSpec['source']): FeatureGateSpec[] {
  return rows.map(([name, stage, enabled, locked]) => ({
    name,
    stage: stages[stage],
    default: enabled,
    lockToDefault: locked === 'locked',
    source,
  }));
}

/** Every known gate, sorted by name as the real `--help` lists them. */
export const featureGateSpecs: readonly FeatureGateSpec[] = [
  ...specs(kubernetes, 'kubernetes'),
  ...specs(apiserver, 'apiserver'),
  ...specs(componentBase, 'component-base'),
  ...specs(automatic, 'automatic'),
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

export const featureGatesByName: ReadonlyMap<string, FeatureGateSpec> = new Map(
  featureGateSpecs.map((s) => [s.name, s]),
);
