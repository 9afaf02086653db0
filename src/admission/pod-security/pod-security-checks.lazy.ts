/**
 * PodSecurity's checks (the Pod Security Standards and their version
 * history) and the evaluation of pods, pod templates and namespace label
 * changes. The plugin loads them with the first write that needs them: a
 * pod or a workload's pod template, or a namespace carrying pod-security
 * labels (before or after). A fresh store's own namespaces carry none, so
 * the worker's first response does not wait for them (decision 0070).
 */

export { newEvaluator } from './evaluator';
export { checkNamespace } from './namespace-check';
export { checkPod, checkPodController } from './pod-check';
