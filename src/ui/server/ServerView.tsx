/**
 * The Server view: what the API server says about itself — which API
 * versions a release serves (Versions), its live metrics (Metrics) and its
 * health checks (Health) — as sections linked by `#/server?section=…`. A
 * section is mounted when first opened and kept while hidden (the metrics
 * keep their history), but only the shown one polls. The metrics section,
 * the largest, is its own chunk.
 */

import { lazy, Suspense, useState } from 'react';
import type { ViewProps } from '../app/view-props';
import { routeHref } from '../lib/route';
import { HealthSection } from './HealthSection';
import { VersionsSection } from './VersionsSection';
import './server.css';

type Section = 'versions' | 'metrics' | 'health';

const sections: { name: Section; label: string }[] = [
  { name: 'versions', label: 'Versions' },
  { name: 'metrics', label: 'Metrics' },
  { name: 'health', label: 'Health' },
];

const MetricsSection = lazy(() => import('./MetricsSection').then((m) => ({ default: m.MetricsSection })));

function sectionOf(params: Record<string, string>): Section {
  const value = params['section'];
  return value === 'metrics' || value === 'health' ? value : 'versions';
}

export function ServerView({ params, active }: ViewProps) {
  const section = sectionOf(params);
  const [opened, setOpened] = useState<Section[]>([section]);
  if (!opened.includes(section)) setOpened([...opened, section]);
  // The release picked last, so that the Versions link and section come back to it from another section.
  const [release, setRelease] = useState(params['release']);
  if (section === 'versions' && params['release'] !== release) setRelease(params['release']);

  return (
    <main className="server-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <h2>Server</h2>
      <nav className="server-sections" aria-label="Server sections">
        {sections.map((s) => (
          <a
            key={s.name}
            href={routeHref('server', s.name === 'versions' ? { release } : { section: s.name })}
            aria-current={s.name === section ? 'page' : undefined}
          >
            {s.label}
          </a>
        ))}
      </nav>
      {opened.map((name) => (
        <div key={name} hidden={name !== section} data-section={name}>
          {name === 'versions' ? (
            <VersionsSection params={release === undefined ? {} : { release }} />
          ) : name === 'health' ? (
            <HealthSection active={active && section === 'health'} />
          ) : (
            <Suspense
              fallback={
                <p className="view-loading" role="status">
                  <span className="spinner" aria-hidden="true" /> Loading the metrics…
                </p>
              }
            >
              <MetricsSection active={active && section === 'metrics'} />
            </Suspense>
          )}
        </div>
      ))}
    </main>
  );
}
