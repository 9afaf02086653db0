/**
 * Picks the namespace whose objects are listed and where new objects go by
 * default. Disabled for cluster-scoped kinds, which have none.
 */

interface Props {
  namespaces: string[];
  value: string;
  disabled: boolean;
  onChange: (namespace: string) => void;
}

export function NamespaceSelect({ namespaces, value, disabled, onChange }: Props) {
  const options = namespaces.includes(value) ? namespaces : [value, ...namespaces];
  return (
    <label className="namespace-select">
      Namespace{' '}
      <select value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
