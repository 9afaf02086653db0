/**
 * The top bar: product name and the version the in-browser server reports
 * (`/version`), which doubles as a live sign that the worker answers.
 */

import { useClient } from '../client-context';
import { useAsync } from '../hooks/useAsync';

interface VersionInfo {
  gitVersion?: string;
}

export function Header() {
  const client = useClient();
  const version = useAsync(async () => {
    const response = await client.raw('GET', '/version');
    return response.ok ? ((await response.json()) as VersionInfo) : undefined;
  }, []);
  return (
    <header className="header">
      <a className="skip-link" href="#objects">
        Skip to objects
      </a>
      <h1>Orch Sandbox</h1>
      <span className="header-version" aria-label="Server version">
        {version.value?.gitVersion !== undefined
          ? `server ${version.value.gitVersion}`
          : version.loading
            ? '…'
            : 'server version unknown'}
      </span>
    </header>
  );
}
