/**
 * Filters for the event list: a text match on the object's name and
 * namespace, and which event types to show. Filtering changes only what is
 * shown; every event is still kept.
 */

import type { LineType } from './useWatchSession';

export const filterableTypes: LineType[] = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'];

interface Props {
  text: string;
  hidden: ReadonlySet<LineType>;
  onText: (text: string) => void;
  onToggle: (type: LineType) => void;
}

export function EventFilter({ text, hidden, onText, onToggle }: Props) {
  return (
    <div className="event-filter" role="group" aria-label="Filter events">
      <label>
        <span className="visually-hidden">Filter by name</span>
        <input
          type="search"
          placeholder="Filter by name…"
          value={text}
          onChange={(e) => onText(e.target.value)}
        />
      </label>
      {filterableTypes.map((type) => (
        <label key={type} className="inline">
          <input type="checkbox" checked={!hidden.has(type)} onChange={() => onToggle(type)} /> {type}
        </label>
      ))}
    </div>
  );
}
