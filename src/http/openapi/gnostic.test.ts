/**
 * The gnostic protobuf form of the Swagger document decodes (with the
 * message layout of gnostic's OpenAPIv2.proto, reduced to what is read
 * here) into the same paths, operations, parameters and definitions as the
 * JSON, with vendor extensions as YAML text — what kubectl reads.
 */

import { Root, type INamespace } from 'protobufjs/light';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../api/meta';
import { encodeSwaggerDocument } from './gnostic';

const f = (type: string, id: number, repeated = false) => ({
  type,
  id,
  ...(repeated ? { rule: 'repeated' } : {}),
});
const descriptor: INamespace = {
  nested: {
    Document: {
      fields: {
        swagger: f('string', 1),
        info: f('Info', 2),
        paths: f('Paths', 8),
        definitions: f('Definitions', 9),
      },
    },
    Info: { fields: { title: f('string', 1), version: f('string', 2) } },
    Paths: { fields: { path: f('NamedPathItem', 2, true) } },
    NamedPathItem: { fields: { name: f('string', 1), value: f('PathItem', 2) } },
    PathItem: {
      fields: { get: f('Operation', 2), patch: f('Operation', 8), parameters: f('ParametersItem', 9, true) },
    },
    Operation: {
      fields: {
        operationId: f('string', 5),
        parameters: f('ParametersItem', 8, true),
        responses: f('Responses', 9),
        vendorExtension: f('NamedAny', 13, true),
      },
    },
    ParametersItem: { fields: { parameter: f('Parameter', 1) } },
    Parameter: {
      fields: { bodyParameter: f('BodyParameter', 1), nonBodyParameter: f('NonBodyParameter', 2) },
    },
    BodyParameter: {
      fields: { name: f('string', 2), in: f('string', 3), required: f('bool', 4), schema: f('Schema', 5) },
    },
    NonBodyParameter: { fields: { query: f('QueryParameter', 3), path: f('PathParameter', 4) } },
    QueryParameter: {
      fields: { in: f('string', 2), name: f('string', 4), type: f('string', 6), uniqueItems: f('bool', 20) },
    },
    PathParameter: {
      fields: { required: f('bool', 1), in: f('string', 2), name: f('string', 4), type: f('string', 5) },
    },
    Responses: { fields: { responseCode: f('NamedResponseValue', 1, true) } },
    NamedResponseValue: { fields: { name: f('string', 1), value: f('ResponseValue', 2) } },
    ResponseValue: { fields: { response: f('Response', 1) } },
    Response: { fields: { description: f('string', 1), schema: f('SchemaItem', 2) } },
    SchemaItem: { fields: { schema: f('Schema', 1) } },
    Definitions: { fields: { additionalProperties: f('NamedSchema', 1, true) } },
    NamedSchema: { fields: { name: f('string', 1), value: f('Schema', 2) } },
    Schema: {
      fields: {
        ref: f('string', 1),
        format: f('string', 2),
        default: f('Any', 5),
        required: f('string', 19, true),
        additionalProperties: f('AdditionalPropertiesItem', 21),
        type: f('TypeItem', 22),
        items: f('ItemsItem', 23),
        properties: f('Properties', 25),
        vendorExtension: f('NamedAny', 31, true),
      },
    },
    AdditionalPropertiesItem: { fields: { schema: f('Schema', 1), boolean: f('bool', 2) } },
    TypeItem: { fields: { value: f('string', 1, true) } },
    ItemsItem: { fields: { schema: f('Schema', 1, true) } },
    Properties: { fields: { additionalProperties: f('NamedSchema', 1, true) } },
    NamedAny: { fields: { name: f('string', 1), value: f('Any', 2) } },
    Any: { fields: { yaml: f('string', 2) } },
  },
};

const swagger: JsonObject = {
  swagger: '2.0',
  info: { title: 'T', version: 'v1' },
  paths: {
    '/apis/apps/v1/namespaces/{namespace}/deployments/{name}': {
      patch: {
        operationId: 'patchAppsV1NamespacedDeployment',
        parameters: [
          { name: 'fieldValidation', in: 'query', type: 'string', uniqueItems: true },
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/D' } },
        ],
        responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/D' } } },
        'x-test-group-version-kind': { group: 'apps', kind: 'Deployment', version: 'v1' },
      },
      parameters: [{ name: 'name', in: 'path', required: true, type: 'string', uniqueItems: true }],
    },
  },
  definitions: {
    D: {
      type: 'object',
      required: ['spec'],
      properties: {
        spec: { $ref: '#/definitions/S', default: {} },
        tags: { type: 'array', items: { type: 'string' }, 'x-test-list-type': 'set' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
      'x-test-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }],
    },
  },
};

describe('gnostic encoding', () => {
  it('decodes into the same document', () => {
    const root = Root.fromJSON(descriptor);
    const doc = root
      .lookupType('Document')
      .toObject(root.lookupType('Document').decode(encodeSwaggerDocument(swagger))) as Record<
      string,
      unknown
    >;
    expect(doc).toMatchObject({
      swagger: '2.0',
      info: { title: 'T', version: 'v1' },
      paths: {
        path: [
          {
            name: '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
            value: {
              patch: {
                operationId: 'patchAppsV1NamespacedDeployment',
                parameters: [
                  {
                    parameter: {
                      nonBodyParameter: {
                        query: { in: 'query', name: 'fieldValidation', type: 'string', uniqueItems: true },
                      },
                    },
                  },
                  {
                    parameter: {
                      bodyParameter: {
                        name: 'body',
                        in: 'body',
                        required: true,
                        schema: { ref: '#/definitions/D' },
                      },
                    },
                  },
                ],
                responses: {
                  responseCode: [
                    {
                      name: '200',
                      value: {
                        response: { description: 'OK', schema: { schema: { ref: '#/definitions/D' } } },
                      },
                    },
                  ],
                },
                vendorExtension: [
                  {
                    name: 'x-test-group-version-kind',
                    value: { yaml: '{"group":"apps","kind":"Deployment","version":"v1"}' },
                  },
                ],
              },
              parameters: [
                {
                  parameter: {
                    nonBodyParameter: { path: { required: true, in: 'path', name: 'name', type: 'string' } },
                  },
                },
              ],
            },
          },
        ],
      },
    });
    const d = (
      doc.definitions as { additionalProperties: { name: string; value: Record<string, unknown> }[] }
    ).additionalProperties[0];
    expect(d?.name).toBe('D');
    expect(d?.value).toMatchObject({
      type: { value: ['object'] },
      required: ['spec'],
      properties: {
        additionalProperties: [
          { name: 'spec', value: { ref: '#/definitions/S', default: { yaml: '{}' } } },
          {
            name: 'tags',
            value: {
              type: { value: ['array'] },
              items: { schema: [{ type: { value: ['string'] } }] },
              vendorExtension: [{ name: 'x-test-list-type', value: { yaml: '"set"' } }],
            },
          },
          {
            name: 'labels',
            value: {
              type: { value: ['object'] },
              additionalProperties: { schema: { type: { value: ['string'] } } },
            },
          },
        ],
      },
      vendorExtension: [
        {
          name: 'x-test-group-version-kind',
          value: { yaml: '[{"group":"apps","kind":"Deployment","version":"v1"}]' },
        },
      ],
    });
  });
});
