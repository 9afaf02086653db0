/**
 * The patch `kubectl apply` sends for an object that exists: a three-way
 * merge of what was last applied (original), what is applied now
 * (modified) and what the server has (current). Fields added or changed
 * from current to modified are set; fields present in original but gone
 * from modified are deleted (null). For kinds kubectl knows (strategic
 * merge patch), lists with a merge key merge item by item, with
 * `$setElementOrder` for their order and `$patch: delete` for removed
 * items; other lists, and every list of a kind kubectl does not know
 * (JSON merge patch), are replaced whole.
 */

type Json = unknown;
type Obj = Record<string, Json>;

function isObj(v: Json): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The merge key of a list field of built-in kinds (patchMergeKey), or undefined for atomic lists. */
function mergeKeyOf(field: string, items: Json[]): string | undefined {
  const byField: Record<string, string> = {
    containers: 'name',
    initContainers: 'name',
    ephemeralContainers: 'name',
    env: 'name',
    volumes: 'name',
    volumeMounts: 'mountPath',
    volumeDevices: 'devicePath',
    imagePullSecrets: 'name',
    ownerReferences: 'uid',
    conditions: 'type',
    hostAliases: 'ip',
    topologySpreadConstraints: 'topologyKey',
    secrets: 'name',
    resourceClaims: 'name',
  };
  if (field === 'ports') {
    const first = items.find(isObj);
    if (first !== undefined && 'containerPort' in first) return 'containerPort';
    if (first !== undefined && 'port' in first) return 'port';
    return undefined;
  }
  return byField[field];
}

export function threeWayPatch(original: Json, modified: Obj, current: Json, strategic: boolean): Obj {
  const patch: Obj = {};
  const o = isObj(original) ? original : {};
  const c = isObj(current) ? current : {};
  for (const key of Object.keys(modified)) {
    const m = modified[key];
    const cur = c[key];
    if (!Object.hasOwn(c, key)) {
      patch[key] = m;
      continue;
    }
    if (isObj(m) && isObj(cur)) {
      const sub = threeWayPatch(o[key], m, cur, strategic);
      if (Object.keys(sub).length > 0) patch[key] = sub;
      continue;
    }
    if (Array.isArray(m) && Array.isArray(cur) && strategic) {
      const mk = mergeKeyOf(key, m);
      if (mk !== undefined && m.every(isObj) && cur.every(isObj)) {
        const orig = Array.isArray(o[key]) ? (o[key] as Obj[]) : [];
        const items: Obj[] = [];
        for (const mi of m as Obj[]) {
          const ci = (cur as Obj[]).find((x) => deepEqual(x[mk], mi[mk]));
          const oi = orig.find((x) => isObj(x) && deepEqual(x[mk], mi[mk]));
          if (ci === undefined) items.push(mi);
          else {
            const sub = threeWayPatch(oi, mi, ci, strategic);
            if (Object.keys(sub).length > 0) items.push({ [mk]: mi[mk], ...sub });
          }
        }
        for (const oi of orig) {
          if (!isObj(oi)) continue;
          if (
            !(m as Obj[]).some((x) => deepEqual(x[mk], oi[mk])) &&
            (cur as Obj[]).some((x) => deepEqual(x[mk], oi[mk]))
          )
            items.push({ [mk]: oi[mk], $patch: 'delete' });
        }
        if (items.length > 0) {
          patch[`$setElementOrder/${key}`] = (m as Obj[]).map((x) => ({ [mk]: x[mk] }));
          patch[key] = items;
        }
        continue;
      }
    }
    if (!deepEqual(m, cur)) patch[key] = m;
  }
  for (const key of Object.keys(o)) {
    if (!Object.hasOwn(modified, key) && Object.hasOwn(c, key)) patch[key] = null;
  }
  return patch;
}
