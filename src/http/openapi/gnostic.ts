/**
 * The Swagger 2.0 document in gnostic's protobuf form
 * (`application/com.github.proto-openapi.spec.v2.v1.0+protobuf`), which
 * kubectl asks for before it validates or explains with OpenAPI v2. It is
 * encoded from the same JSON document the server serves, the way the real
 * server converts its JSON: vendor extensions and free-form values
 * (`default`, `enum`) travel as YAML text, which JSON text is.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import { ProtoWriter } from './proto-writer';

type Obj = Record<string, JsonValue>;

function obj(v: JsonValue | undefined): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** gnostic `Any`: the value as YAML text (field 2). */
function any(w: ProtoWriter, field: number, value: JsonValue): void {
  w.message(field, (a) => a.string(2, JSON.stringify(value)));
}

/** `NamedAny` entries for every `x-` key of an object. */
function vendorExtensions(w: ProtoWriter, field: number, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (!k.startsWith('x-')) continue;
    w.message(field, (n) => {
      n.string(1, k);
      any(n, 2, v);
    });
  }
}

function schema(w: ProtoWriter, s: Obj): void {
  w.string(1, typeof s.$ref === 'string' ? s.$ref : undefined);
  w.string(2, typeof s.format === 'string' ? s.format : undefined);
  w.string(4, typeof s.description === 'string' ? s.description : undefined);
  if (s.default !== undefined) any(w, 5, s.default);
  for (const r of strings(s.required)) w.string(19, r);
  if (Array.isArray(s.enum)) for (const e of s.enum) any(w, 20, e);
  const ap = s.additionalProperties;
  if (typeof ap === 'boolean') w.message(21, (a) => a.bool(2, ap));
  else if (obj(ap) !== undefined) w.message(21, (a) => a.message(1, (x) => schema(x, obj(ap) ?? {})));
  if (typeof s.type === 'string') {
    const t = s.type;
    w.message(22, (x) => x.string(1, t));
  }
  const items = obj(s.items);
  if (items !== undefined) w.message(23, (x) => x.message(1, (y) => schema(y, items)));
  const props = obj(s.properties);
  if (props !== undefined)
    w.message(25, (p) => {
      for (const [name, child] of Object.entries(props))
        p.message(1, (n) => {
          n.string(1, name);
          n.message(2, (x) => schema(x, obj(child) ?? {}));
        });
    });
  vendorExtensions(w, 31, s);
}

function parameter(w: ProtoWriter, p: Obj): void {
  // ParametersItem.parameter(1) → Parameter: body_parameter(1) | non_body_parameter(2)
  w.message(1, (param) => {
    if (p.in === 'body') {
      param.message(1, (b) => {
        b.string(1, typeof p.description === 'string' ? p.description : undefined);
        b.string(2, String(p.name ?? ''));
        b.string(3, 'body');
        b.bool(4, p.required === true);
        b.message(5, (x) => schema(x, obj(p.schema) ?? {}));
        vendorExtensions(b, 6, p);
      });
      return;
    }
    param.message(2, (nb) => {
      if (p.in === 'path') {
        nb.message(4, (x) => {
          x.bool(1, p.required === true);
          x.string(2, 'path');
          x.string(4, String(p.name ?? ''));
          x.string(5, typeof p.type === 'string' ? p.type : undefined);
          x.bool(19, p.uniqueItems === true);
          vendorExtensions(x, 22, p);
        });
      } else {
        nb.message(3, (x) => {
          x.bool(1, p.required === true);
          x.string(2, 'query');
          x.string(4, String(p.name ?? ''));
          x.string(6, typeof p.type === 'string' ? p.type : undefined);
          x.bool(20, p.uniqueItems === true);
          vendorExtensions(x, 23, p);
        });
      }
    });
  });
}

function responses(w: ProtoWriter, rs: Obj): void {
  for (const [code, value] of Object.entries(rs)) {
    const r = obj(value) ?? {};
    w.message(1, (n) => {
      n.string(1, code);
      // ResponseValue.response(1) → Response{description(1), schema(2): SchemaItem{schema(1)}}
      n.message(2, (rv) =>
        rv.message(1, (resp) => {
          resp.string(1, typeof r.description === 'string' ? r.description : undefined);
          const s = obj(r.schema);
          if (s !== undefined) resp.message(2, (si) => si.message(1, (x) => schema(x, s)));
          vendorExtensions(resp, 5, r);
        }),
      );
    });
  }
}

function operation(w: ProtoWriter, o: Obj): void {
  for (const t of strings(o.tags)) w.string(1, t);
  w.string(3, typeof o.description === 'string' ? o.description : undefined);
  w.string(5, typeof o.operationId === 'string' ? o.operationId : undefined);
  for (const t of strings(o.produces)) w.string(6, t);
  for (const t of strings(o.consumes)) w.string(7, t);
  if (Array.isArray(o.parameters))
    for (const p of o.parameters) w.message(8, (x) => parameter(x, obj(p) ?? {}));
  w.message(9, (x) => responses(x, obj(o.responses) ?? {}));
  for (const s of strings(o.schemes)) w.string(10, s);
  vendorExtensions(w, 13, o);
}

const methodFields: Record<string, number> = {
  get: 2,
  put: 3,
  post: 4,
  delete: 5,
  options: 6,
  head: 7,
  patch: 8,
};

function pathItem(w: ProtoWriter, item: Obj): void {
  for (const [method, field] of Object.entries(methodFields)) {
    const o = obj(item[method]);
    if (o !== undefined) w.message(field, (x) => operation(x, o));
  }
  if (Array.isArray(item.parameters))
    for (const p of item.parameters) w.message(9, (x) => parameter(x, obj(p) ?? {}));
  vendorExtensions(w, 10, item);
}

/** Encodes a Swagger 2.0 JSON document as `openapi.v2.Document`. */
export function encodeSwaggerDocument(doc: JsonObject): Uint8Array<ArrayBuffer> {
  const w = new ProtoWriter();
  w.string(1, typeof doc.swagger === 'string' ? doc.swagger : '2.0');
  const info = obj(doc.info) ?? {};
  w.message(2, (x) => {
    x.string(1, typeof info.title === 'string' ? info.title : undefined);
    x.string(2, typeof info.version === 'string' ? info.version : undefined);
  });
  const paths = obj(doc.paths) ?? {};
  w.message(8, (x) => {
    for (const [path, item] of Object.entries(paths))
      x.message(2, (n) => {
        n.string(1, path);
        n.message(2, (y) => pathItem(y, obj(item) ?? {}));
      });
  });
  const defs = obj(doc.definitions) ?? {};
  w.message(9, (x) => {
    for (const [name, s] of Object.entries(defs))
      x.message(1, (n) => {
        n.string(1, name);
        n.message(2, (y) => schema(y, obj(s) ?? {}));
      });
  });
  for (const req of Array.isArray(doc.security) ? doc.security : [])
    w.message(12, (x) => {
      for (const [name, scopes] of Object.entries(obj(req) ?? {}))
        x.message(1, (n) => {
          n.string(1, name);
          n.message(2, (sa) => {
            for (const s of strings(scopes)) sa.string(1, s);
          });
        });
    });
  const secDefs = obj(doc.securityDefinitions) ?? {};
  w.message(13, (x) => {
    for (const [name, def] of Object.entries(secDefs)) {
      const d = obj(def) ?? {};
      x.message(1, (n) => {
        n.string(1, name);
        // SecurityDefinitionsItem.api_key_security(2) → ApiKeySecurity{type, name, in}
        n.message(2, (item) =>
          item.message(2, (k) => {
            k.string(1, typeof d.type === 'string' ? d.type : undefined);
            k.string(2, typeof d.name === 'string' ? d.name : undefined);
            k.string(3, typeof d.in === 'string' ? d.in : undefined);
          }),
        );
      });
    }
  });
  return w.finish();
}
