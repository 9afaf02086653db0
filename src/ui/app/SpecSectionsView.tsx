/**
 * The spec sections that error explanations cite, as a small page with one
 * stable anchor per section (`#/spec?section=core-field-validation`). The
 * spec documents themselves are not shipped with the app, so each entry
 * names the document and heading path to find it there, says in a sentence
 * what the section states, and lists the explanations that cite it. No
 * header tab: it is reached from the explanations' links.
 */

import { useEffect } from 'react';
import { explanationEntries } from '../lib/explanations';
import { allSpecSections, type AnySpecSectionId, type SpecSection } from '../lib/spec-sections';
import type { ViewProps } from './view-props';

export function SpecSectionsView({ params, active }: ViewProps) {
  const wanted = params['section'];
  useEffect(() => {
    if (!active || wanted === undefined) return;
    const target = document.getElementById(`spec-${wanted}`);
    target?.focus();
    target?.scrollIntoView({ block: 'start' });
  }, [active, wanted]);
  const ids = Object.keys(allSpecSections) as AnySpecSectionId[];
  return (
    <main className="spec-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <h2>Spec sections</h2>
      <p className="muted">
        The error explanations and the lessons link here. Each entry names the spec document and heading where
        the rule is stated (the documents are not part of the app) and says what the section is about.
      </p>
      <ul className="spec-sections">
        {ids.map((id) => {
          const section: SpecSection = allSpecSections[id];
          const citing = explanationEntries.filter((e) => e.spec === id);
          return (
            <li key={id} aria-current={id === wanted ? 'true' : undefined}>
              <h3 id={`spec-${id}`} tabIndex={-1}>
                {section.document} › {section.section}
              </h3>
              <p className="muted">
                {section.document}: {section.path}
              </p>
              <p>{section.summary}</p>
              {citing.length > 0 ? (
                <p className="muted">Explains: {citing.map((e) => e.id).join(', ')}</p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </main>
  );
}
