/**
 * Scenarios for a workshop: the ones that come with the app, one from a
 * file or a URL, and a shareable link that starts every attendee from the
 * same objects (packed into the link itself, or pointing at a file URL).
 * "Capture a namespace" turns the objects of a namespace into such a link.
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import { CopyButton } from '../common/CopyButton';
import { ErrorNotice } from '../common/ErrorNotice';
import { useLiveNames } from '../hooks/useLiveNames';
import { routeHref } from '../lib/route';
import { captureNamespace } from './capture';
import { encodeScenario, readWorkshopFile, type WorkshopFile } from './scenario-file';
import { ScenarioSummary } from './ScenarioSummary';
import { useScenarioLoader } from './useScenarioLoader';

interface BuiltIn {
  file: string;
  title: string;
  description: string;
}

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;

export function ScenarioCard() {
  const client = useClient();
  const groupVersions = useDiscovery().discovery?.groupVersions ?? [];
  const namespaces = useLiveNames(NAMESPACES);
  const loader = useScenarioLoader();
  const [builtIns, setBuiltIns] = useState<BuiltIn[]>([]);
  const [file, setFile] = useState<WorkshopFile | undefined>(undefined);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [manifests, setManifests] = useState('');
  const [capture, setCapture] = useState('default');
  const [link, setLink] = useState<string | undefined>(undefined);

  useEffect(() => {
    fetch('/scenarios/index.json')
      .then((r) => (r.ok ? (r.json() as Promise<BuiltIn[]>) : []))
      .then(setBuiltIns, () => setBuiltIns([]));
  }, []);

  const read = (text: string, title: string) => {
    setError(undefined);
    try {
      setFile(readWorkshopFile(text, title));
    } catch (e) {
      setError(e);
    }
  };
  const shareUrl = (params: Record<string, string>) => `${location.origin}/${routeHref('workshop', params)}`;

  return (
    <section className="card" aria-labelledby="scenario-heading">
      <h3 id="scenario-heading">Scenarios</h3>
      <div className="scenario-columns">
        <div>
          <h4>Included</h4>
          <ul className="builtin-list">
            {builtIns.map((b) => (
              <li key={b.file}>
                <strong>{b.title}</strong> <span className="muted">{b.description}</span>
                <div className="row">
                  <button
                    type="button"
                    className="secondary small"
                    onClick={() =>
                      void fetch(`/scenarios/${b.file}`)
                        .then((r) => r.text())
                        .then((t) => read(t, b.title), setError)
                    }
                  >
                    Choose {b.title}
                  </button>
                  <CopyButton text={shareUrl({ scenario: `/scenarios/${b.file}` })} label="Copy link" />
                </div>
              </li>
            ))}
          </ul>
          <h4>From a file or URL</h4>
          <label className="file-button">
            Open a scenario file…
            <input
              type="file"
              accept=".yaml,.yml,.json"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                if (chosen !== undefined) void chosen.text().then((t) => read(t, chosen.name));
              }}
            />
          </label>
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              fetch(url)
                .then((r) => {
                  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
                  return r.text();
                })
                .then((t) => read(t, url), setError);
            }}
          >
            <label className="grow">
              <span className="visually-hidden">Scenario URL</span>
              <input
                value={url}
                placeholder="https://…/scenario.yaml"
                onChange={(e) => setUrl(e.target.value)}
              />
            </label>
            <button type="submit" className="secondary" disabled={url.trim() === ''}>
              Fetch
            </button>
          </form>
          {file !== undefined ? (
            <ScenarioSummary file={file} loader={loader} onLoad={() => void loader.load(file)} />
          ) : null}
          {error !== undefined ? <ErrorNotice title="Not a scenario" error={error} /> : null}
        </div>
        <div>
          <h4>Make a shareable link</h4>
          <div className="row">
            <label>
              Capture namespace{' '}
              <select value={capture} onChange={(e) => setCapture(e.target.value)}>
                {namespaces.map((n) => (
                  <option key={n}>{n}</option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="secondary small"
              onClick={() =>
                void captureNamespace(client, groupVersions, capture).then(setManifests, (e: unknown) =>
                  setError(e),
                )
              }
            >
              Capture
            </button>
          </div>
          <label className="stack">
            Objects (YAML, documents separated by ---)
            <textarea
              rows={8}
              value={manifests}
              spellCheck={false}
              onChange={(e) => setManifests(e.target.value)}
            />
          </label>
          <button
            type="button"
            disabled={manifests.trim() === ''}
            onClick={() => {
              try {
                const parsed = readWorkshopFile(manifests, 'Shared scenario');
                if (parsed.kind !== 'scenario') throw new Error('Share a state file as a file, not a link.');
                void encodeScenario(parsed.scenario).then((data) =>
                  setLink(shareUrl({ 'scenario-data': data })),
                );
              } catch (e) {
                setError(e);
              }
            }}
          >
            Create link
          </button>
          {link !== undefined ? (
            <div className="share-link">
              <input readOnly value={link} aria-label="Shareable link" onFocus={(e) => e.target.select()} />
              <CopyButton text={link} label="Copy link" />
              <span className="muted">{link.length} characters</span>
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}
