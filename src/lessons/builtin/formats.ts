/** Lesson 4: content negotiation — JSON, Table, Protobuf and 406. */

import type { LessonDocument } from '../format';
import { request, sent } from './common';

const path = '/api/v1/namespaces/learn-formats/configmaps';
const table = 'application/json;as=Table;g=meta.orch.io;v=v1';

export const formats: LessonDocument = {
  apiVersion: 'sandbox.orch.io/v1',
  kind: 'Lesson',
  id: 'formats',
  title: 'Formats: JSON, Table and Protobuf',
  part: 'Finding your way',
  minutes: 2,
  goal: 'Ask the server for the representation you want with the Accept header, and know what it says when it cannot.',
  sections: [
    {
      text: 'Answers are JSON unless `Accept` asks for something else. `application/json;as=Table;g=meta.orch.io;v=v1` asks for a Table: columns chosen by the server for the kind (what `kubectl get` prints). `application/vnd.orch.protobuf` asks for the binary encoding. Several types may be listed as fallbacks; when none can be served the answer is 406 Not Acceptable.',
      spec: ['core-content-negotiation', 'core-errors'],
    },
  ],
  start: {
    namespaces: ['learn-formats'],
    objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sample' }, data: { a: '1' } }],
  },
  steps: [
    {
      id: 'table',
      title: 'Ask for a Table',
      text: `In the Console, send \`GET ${path}\` with the header \`Accept: ${table}\`. The answer has \`columnDefinitions\` and \`rows\` instead of \`items\`.`,
      open: [
        {
          view: 'console',
          label: 'Console with the list',
          params: { method: 'GET', path, headers: `Accept: ${table}` },
        },
      ],
      checks: [sent('A Table was served', "requests.exists(r, r.status == 200 && r.kind == 'Table')")],
      showMe: [request('GET', path, { accept: table })],
    },
    {
      id: 'protobuf',
      title: 'Ask for Protobuf',
      text: 'Send the same GET with `Accept: application/vnd.orch.protobuf`. The body is binary: four magic bytes `k8s\\0` and then the encoded object. (Custom resources have no Protobuf form.)',
      open: [
        {
          view: 'console',
          label: 'Console with the list',
          params: { method: 'GET', path, headers: `Accept: ${'application/vnd.orch.protobuf'}` },
        },
      ],
      checks: [
        sent(
          'A Protobuf answer was served',
          "requests.exists(r, r.status == 200 && 'content-type' in r.responseHeaders && r.responseHeaders['content-type'].contains('protobuf'))",
        ),
      ],
      showMe: [request('GET', path, { accept: 'application/vnd.orch.protobuf' })],
    },
    {
      id: 'not-acceptable',
      title: 'Ask for what it cannot serve',
      text: 'Send a GET with `Accept: text/csv`. Nothing fits, so the answer is 406 Not Acceptable.',
      open: [
        {
          view: 'console',
          label: 'Console with the list',
          params: { method: 'GET', path, headers: `Accept: ${'text/csv'}` },
        },
      ],
      checks: [sent('A request was answered 406 Not Acceptable', 'requests.exists(r, r.status == 406)')],
      showMe: [request('GET', path, { accept: 'text/csv' }, { expectStatus: [406] })],
    },
  ],
};
