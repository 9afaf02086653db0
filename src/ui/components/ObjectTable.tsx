/**
 * The objects of the chosen kind as a table with a delete button per row.
 * The resourceVersion column makes the store's one revision sequence visible.
 */

import type { KubeObject } from '../../api/meta';

interface Props {
  kindLabel: string;
  namespaced: boolean;
  objects: KubeObject[];
  onDelete: (object: KubeObject) => void;
  busyName: string | undefined;
}

export function ObjectTable({ kindLabel, namespaced, objects, onDelete, busyName }: Props) {
  if (objects.length === 0) return <p className="muted">No {kindLabel} here yet.</p>;
  return (
    <table className="objects">
      <caption className="visually-hidden">{kindLabel}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          {namespaced ? <th scope="col">Namespace</th> : null}
          <th scope="col">Created</th>
          <th scope="col">Resource version</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {objects.map((object) => {
          const name = object.metadata?.name ?? '';
          return (
            <tr key={object.metadata?.uid ?? name}>
              <th scope="row">{name}</th>
              {namespaced ? <td>{object.metadata?.namespace}</td> : null}
              <td>{object.metadata?.creationTimestamp ?? ''}</td>
              <td className="numeric">{object.metadata?.resourceVersion ?? ''}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete ${name}`}
                  disabled={busyName === name || object.metadata?.deletionTimestamp != null}
                  onClick={() => onDelete(object)}
                >
                  {object.metadata?.deletionTimestamp != null ? 'Terminating' : 'Delete'}
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
