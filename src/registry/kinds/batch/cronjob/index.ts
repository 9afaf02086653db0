/**
 * CronJob: the real validation of its schedule (robfig/cron's grammar and
 * messages, see `machinery/cron.ts`), of its time zone (a name the
 * runtime's time-zone database knows) and the refusal of `TZ=`/`CRON_TZ=`
 * inside the schedule, which `spec.timeZone` replaced.
 */

import type { KubeObject } from '../../../../api/meta';
import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import type { KindHooks } from '../../../rest/strategy';
import { withWorkloadChecks, type Checks } from '../../../validation/workload-checks';
import type { KindRegistration } from '../../types';

function scheduleErrors(checks: Checks, obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = (obj.spec ?? {}) as { schedule?: unknown; timeZone?: unknown };
  const errors: FieldError[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  if (schedule === '') errors.push(fieldError.required('spec.schedule', ''));
  else {
    const oldSchedule = (old?.spec as { schedule?: unknown } | undefined)?.schedule;
    // An existing object keeps a TZ= prefix it was created with; a new one may not use it.
    if (/^\s*(CRON_)?TZ=/.test(schedule) && oldSchedule !== schedule)
      errors.push(
        fieldError.invalid(
          'spec.schedule',
          schedule,
          'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
        ),
      );
    else
      try {
        checks.parseCron(schedule);
      } catch (e) {
        if (!(e instanceof checks.CronParseError)) throw e;
        errors.push(fieldError.invalid('spec.schedule', schedule, e.message));
      }
  }
  if (typeof spec.timeZone === 'string') {
    const zone = spec.timeZone;
    if (zone === '' || zone.toLowerCase() === 'local')
      errors.push(fieldError.invalid('spec.timeZone', zone, 'unknown time zone ' + zone));
    else if (!checks.isKnownTimeZone(zone))
      errors.push(fieldError.invalid('spec.timeZone', zone, 'unknown time zone ' + zone));
  }
  return errors;
}

const hooks: KindHooks = {
  validateAsync: withWorkloadChecks((checks, obj, old) => scheduleErrors(checks, obj, old)),
};

export const cronJob: KindRegistration = { hooks };
