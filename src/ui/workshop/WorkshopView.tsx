/**
 * Workshop tools: a shared scenario (from a link), reset, export and
 * import of the whole state, scenarios to start attendees from the same
 * objects, the simulated cluster (its nodes, the clock, the speed), the
 * server settings (profile, history window, feature gates),
 * the Node host that copied commands target, the admission plugins and
 * audit policy, and the live audit log.
 */

import type { ViewProps } from '../app/view-props';
import { OwnerNotice } from './OwnerNotice';
import { AdmissionCard } from './AdmissionCard';
import { AuditLogCard } from './AuditLogCard';
import { ClockCard } from './ClockCard';
import { NodesCard } from './NodesCard';
import { NodeHostCard } from './NodeHostCard';
import { ResetCard } from './ResetCard';
import { ScenarioCard } from './ScenarioCard';
import { SettingsCard } from './SettingsCard';
import { SharedScenarioBanner } from './SharedScenarioBanner';
import { StateFileCard } from './StateFileCard';

export function WorkshopView({ params, active }: ViewProps) {
  return (
    <main className="workshop-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <h2>Workshop</h2>
      <OwnerNotice />
      <SharedScenarioBanner url={params['scenario']} data={params['scenario-data']} />
      <div className="workshop-columns">
        <div className="workshop-left">
          <div className="card-pair">
            <ResetCard />
            <StateFileCard />
          </div>
          <ScenarioCard />
          <NodeHostCard />
          <AdmissionCard active={active} />
        </div>
        <div className="workshop-right">
          <NodesCard active={active} />
          <ClockCard active={active} />
          <SettingsCard active={active} />
        </div>
      </div>
      <AuditLogCard active={active} />
    </main>
  );
}
