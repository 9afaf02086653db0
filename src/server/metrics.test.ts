/**
 * The admission and store observations, which find their series by the
 * label values without spelling a label set per call: each lands in the
 * series its labels name, a rejected observation makes no series for the
 * accepted outcome (or the other way round), and the exposition is the one
 * `Histogram.observe` with the same labels gives.
 */

import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics';

const seriesLines = (text: string, family: string): string[] =>
  text.split('\n').filter((line) => line.startsWith(`${family}_count`) || line.startsWith(`${family}_sum`));

describe('admission and store observations', () => {
  it('land in the series their labels name, and only there', async () => {
    const metrics = new Metrics();
    metrics.observeController(
      { name: 'LimitRanger', operation: 'CREATE', rejected: false, type: 'admit' },
      0.5,
    );
    metrics.observeController(
      { name: 'LimitRanger', operation: 'CREATE', rejected: false, type: 'admit' },
      0.25,
    );
    metrics.observeController(
      { name: 'PodSecurity', operation: 'UPDATE', rejected: true, type: 'validate' },
      1,
    );
    metrics.observeStep({ operation: 'CREATE', rejected: true, type: 'admit' }, 2);
    metrics.observeStore('create', 'configmaps', 0.125);
    metrics.observeStore('create', 'configmaps', 0.125);
    const text = await metrics.text();
    expect(seriesLines(text, 'apiserver_admission_controller_admission_duration_seconds')).toEqual([
      'apiserver_admission_controller_admission_duration_seconds_sum{name="LimitRanger",operation="CREATE",rejected="false",type="admit"} 0.75',
      'apiserver_admission_controller_admission_duration_seconds_count{name="LimitRanger",operation="CREATE",rejected="false",type="admit"} 2',
      'apiserver_admission_controller_admission_duration_seconds_sum{name="PodSecurity",operation="UPDATE",rejected="true",type="validate"} 1',
      'apiserver_admission_controller_admission_duration_seconds_count{name="PodSecurity",operation="UPDATE",rejected="true",type="validate"} 1',
    ]);
    expect(seriesLines(text, 'apiserver_admission_step_admission_duration_seconds')).toEqual([
      'apiserver_admission_step_admission_duration_seconds_sum{operation="CREATE",rejected="true",type="admit"} 2',
      'apiserver_admission_step_admission_duration_seconds_count{operation="CREATE",rejected="true",type="admit"} 1',
    ]);
    expect(seriesLines(text, 'etcd_request_duration_seconds')).toEqual([
      'etcd_request_duration_seconds_sum{operation="create",type="configmaps"} 0.25',
      'etcd_request_duration_seconds_count{operation="create",type="configmaps"} 2',
    ]);
  });
});
