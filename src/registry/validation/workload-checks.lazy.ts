/**
 * The workload kinds' own checks (selectors against their pod templates,
 * immutable selectors, generated Job selectors, CronJob schedules and time
 * zones): loaded with the first write of a Deployment, ReplicaSet,
 * StatefulSet, DaemonSet, ReplicationController, Job or CronJob, never on
 * the path to the worker's first response (decision 0070, round 3).
 */

export {
  goLabelSelector,
  goStringMap,
  immutableSelectorErrors,
  mapSelectorAndTemplateErrors,
  selectorAndTemplateErrors,
  selectorMatches,
} from './workload';
export { CronParseError, isKnownTimeZone, parseCron } from '../../machinery/cron';
