/**
 * The top bar: a skip link, the product name, the version the in-browser
 * server reports (`/version`, also a live sign that the worker answers),
 * the naming profile, the view tabs, the size of the request log, the
 * identity the UI acts as (src/ui/identity) and the theme switch.
 */

import { useClient } from '../client-context';
import { IdentitySwitcher } from '../identity/IdentitySwitcher';
import { useAsync } from '../hooks/useAsync';
import { besideFirstScreen } from '../lib/first-screen';
import { preferences } from '../lib/preferences';
import type { ViewName } from '../lib/route';
import { RequestCounter } from './RequestCounter';
import { ThemeToggle } from './ThemeToggle';
import { ViewTabs } from './ViewTabs';

interface VersionInfo {
  gitVersion?: string;
}

export function Header({
  view,
  lastParams,
}: {
  view: ViewName;
  lastParams: Partial<Record<ViewName, Record<string, string>>>;
}) {
  const client = useClient();
  const version = useAsync(async () => {
    // On the explorer, once its first screen is shown (the list and discovery are asked first).
    await besideFirstScreen();
    const response = await client.raw('GET', '/version');
    return response.ok ? ((await response.json()) as VersionInfo) : undefined;
  }, []);
  return (
    <header className="header">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // The fragment holds the route, so the link focuses the target itself. Only the shown view's
          // main region carries the id (the hidden views stay mounted), so this is always the right one.
          event.preventDefault();
          const target = document.getElementById('main');
          target?.focus();
          target?.scrollIntoView({ block: 'nearest' });
        }}
      >
        {view === 'explorer' ? 'Skip to objects' : 'Skip to content'}
      </a>
      <h1>Orch Sandbox</h1>
      <span className="header-version" aria-label="Server version">
        {version.value?.gitVersion !== undefined
          ? version.value.gitVersion
          : version.loading
            ? '…'
            : 'server version unknown'}
      </span>
      {/* Ten tabs and the switcher share 1280 px: the badge shows the profile's name, its label says what it is. */}
      <span
        className="profile-badge"
        aria-label="Naming profile"
        title="Naming profile (change it in Workshop → Settings)"
      >
        {preferences.profile()}
      </span>
      <ViewTabs current={view} lastParams={lastParams} />
      <RequestCounter />
      <IdentitySwitcher />
      <ThemeToggle />
    </header>
  );
}
