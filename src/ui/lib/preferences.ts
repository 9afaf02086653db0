/**
 * What the UI remembers in this browser (localStorage), apart from the
 * cluster state the worker keeps: theme, naming profile, the Node host the
 * copied commands target, and the field manager the editor applies as.
 * Reads never throw (storage may be disabled); a bad value reads as default.
 */

import { defaultNodeHost, type NodeHostTarget } from './commands';

export type ThemePreference = 'system' | 'light' | 'dark';
export type ProfilePreference = 'orch' | 'kubernetes';

const prefix = 'orch-sandbox.';

/**
 * The localStorage key of a preference. index.html's inline scripts read the theme's and the profile's
 * before any module loads (the theme before the first paint, the profile for the worker's URL), so they
 * repeat those two keys: index-html.test.ts checks they agree.
 */
export function preferenceKey(name: string): string {
  return prefix + name;
}

function read(key: string): string | undefined {
  try {
    return localStorage.getItem(preferenceKey(key)) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(key: string, value: string | undefined): void {
  try {
    if (value === undefined) localStorage.removeItem(preferenceKey(key));
    else localStorage.setItem(preferenceKey(key), value);
  } catch {
    // Storage disabled: the choice lasts for this page only.
  }
}

export const preferences = {
  theme(): ThemePreference {
    const value = read('theme');
    return value === 'light' || value === 'dark' ? value : 'system';
  },
  setTheme(value: ThemePreference): void {
    write('theme', value === 'system' ? undefined : value);
  },
  profile(): ProfilePreference {
    return read('profile') === 'kubernetes' ? 'kubernetes' : 'orch';
  },
  setProfile(value: ProfilePreference): void {
    write('profile', value === 'orch' ? undefined : value);
  },
  nodeHost(): NodeHostTarget {
    try {
      const saved = JSON.parse(read('node-host') ?? '{}') as Partial<NodeHostTarget>;
      const target: NodeHostTarget = {
        url: typeof saved.url === 'string' && saved.url !== '' ? saved.url : defaultNodeHost.url,
        kubeconfig:
          typeof saved.kubeconfig === 'string' && saved.kubeconfig !== ''
            ? saved.kubeconfig
            : defaultNodeHost.kubeconfig,
      };
      if (typeof saved.token === 'string' && saved.token !== '') target.token = saved.token;
      return target;
    } catch {
      return defaultNodeHost;
    }
  },
  setNodeHost(value: NodeHostTarget): void {
    write('node-host', JSON.stringify(value));
  },
  /** Whether the first-visit card offering the course was dismissed (or the course opened). */
  courseCardDismissed(): boolean {
    return read('course-card') === 'dismissed';
  },
  dismissCourseCard(): void {
    write('course-card', 'dismissed');
  },
  fieldManager(): string {
    return read('field-manager') ?? 'sandbox-editor';
  },
  setFieldManager(value: string): void {
    write('field-manager', value);
  },
};
