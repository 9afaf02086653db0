/**
 * The Identity view's sections: who am I and what may I do (the view's
 * own content), certificate signing, and service account tokens — links
 * to `#/identity?section=…`, so each is shareable, marked with
 * `aria-current`. The two new sections load on demand (the X.509 library
 * is large), inside the Identity view rather than as more header tabs.
 */

import { lazy, Suspense, useState } from 'react';
import { routeHref } from '../lib/route';

export type IdentitySection = 'access' | 'certificates' | 'tokens';

const sections: { name: IdentitySection; label: string }[] = [
  { name: 'access', label: 'Who am I · What can I do' },
  { name: 'certificates', label: 'Certificate signing' },
  { name: 'tokens', label: 'Service account tokens' },
];

export function sectionOf(params: Record<string, string>): IdentitySection {
  const value = params['section'];
  return value === 'certificates' || value === 'tokens' ? value : 'access';
}

export function IdentitySectionNav({ current }: { current: IdentitySection }) {
  return (
    <nav className="identity-sections" aria-label="Identity sections">
      {sections.map((s) => (
        <a
          key={s.name}
          href={routeHref('identity', s.name === 'access' ? {} : { section: s.name })}
          aria-current={s.name === current ? 'page' : undefined}
        >
          {s.label}
        </a>
      ))}
    </nav>
  );
}

const CertificatesSection = lazy(() =>
  import('./CertificatesSection').then((m) => ({ default: m.CertificatesSection })),
);
const TokensSection = lazy(() => import('./TokensSection').then((m) => ({ default: m.TokensSection })));

/** The sections opened so far, each kept mounted while hidden (its live list and selection survive a visit elsewhere). */
export function IdentitySectionBody({ section }: { section: IdentitySection }) {
  const [opened, setOpened] = useState<Exclude<IdentitySection, 'access'>[]>([]);
  if (section !== 'access' && !opened.includes(section)) setOpened([...opened, section]);
  return (
    <>
      {opened.map((name) => (
        <div key={name} hidden={name !== section}>
          <Suspense
            fallback={
              <p className="view-loading" role="status">
                <span className="spinner" aria-hidden="true" /> Loading…
              </p>
            }
          >
            {name === 'certificates' ? <CertificatesSection /> : <TokensSection />}
          </Suspense>
        </div>
      ))}
    </>
  );
}
