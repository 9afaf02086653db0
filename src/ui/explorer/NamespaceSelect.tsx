/**
 * Picks the namespace whose objects are listed and where new objects go by
 * default, or all namespaces. Not shown for cluster-scoped kinds, which
 * have none. The list of namespaces is live (watched), so a namespace created
 * anywhere shows up here.
 */

export const allNamespaces = '*';

interface Props {
  namespaces: string[];
  value: string;
  onChange: (namespace: string) => void;
}

export function NamespaceSelect({ namespaces, value, onChange }: Props) {
  const names = namespaces.includes(value) || value === allNamespaces ? namespaces : [value, ...namespaces];
  return (
    <label className="namespace-select">
      Namespace{' '}
      <select
        aria-label="Namespace"
        title={value === allNamespaces ? 'All namespaces' : value}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value={allNamespaces}>All namespaces</option>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
