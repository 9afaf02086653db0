// The service worker's code that loads when first needed stays lazy: walking the source's imports from the
// worker's entry (static and dynamic, as the worker build inlines both; type-only imports carry no code), no module
// reaches a package that a `*.lazy.ts` module wraps except through that module, and none reaches the code of ours
// a lazy module holds (the controllers and the simulated cluster), which the build leaves out of sw.js (see
// machinery/lazy-module.ts, scripts/lazy-module-graph.ts and vite.config.ts). A plain `import { X } from
// 'protobufjs'`, or a server module importing `controllers/job.ts`, anywhere on the worker's path would put that
// code back on the path to its first response; this test names the importer.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importsOf,
  lazyModuleFiles,
  lazyModuleGraph,
  resolveLocal,
  workerModules,
} from '../scripts/lazy-module-graph';

const root = resolve(__dirname, '..');
const entry = join(root, 'src/hosts/browser/worker/sw.ts');

const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Our code each lazy module holds, by folder (or file), and the few files of those folders the worker holds on
 * purpose: the simulation's settings are validated by the server and its hosts (the start-up objects' APF
 * configuration, with its informer and work queue, is written by the post-start script, which holds its own copy). Generated tables that only
 * a lazy module reads are named file by file. The CEL layer (all of `src/cel/` but the engine's loader) is held by
 * each lazy module that compiles or evaluates expressions, none of it by the worker.
 */
const lazyCode = [
  {
    lazy: 'src/server/controller-manager.lazy.ts',
    minimumOwn: 50,
    folders: ['src/controllers/', 'src/simulation/'],
    onWorkerPath: ['src/simulation/settings.ts'],
  },
  {
    lazy: 'src/http/table-columns/table-printers.lazy.ts',
    minimumOwn: 5,
    folders: ['src/http/table-columns/'],
    // Custom resources' columns (CRD additionalPrinterColumns) are built when a CRD is served.
    onWorkerPath: [
      'src/http/table-columns/custom.ts',
      'src/http/table-columns/format.ts',
      'src/http/table-columns/library.ts',
    ],
  },
  {
    lazy: 'src/http/openapi/openapi-documents.lazy.ts',
    minimumOwn: 5,
    folders: ['src/http/openapi/'],
    // The service answers `/openapi/*` and loads the builders on the first such request.
    onWorkerPath: ['src/http/openapi/service.ts', 'src/http/openapi/library.ts'],
  },
  {
    lazy: 'src/registry/crd/crd-machinery.lazy.ts',
    minimumOwn: 8,
    // A CRD write's validation and the builder of its served resources (schema facts, pruning, defaulting).
    folders: [
      'src/registry/crd/validate-crd.ts',
      'src/registry/crd/schema-validation.ts',
      'src/registry/crd/openapi-schema.ts',
      'src/registry/crd/structural.ts',
      'src/registry/crd/resource-types.ts',
      'src/registry/crd/facts.ts',
      'src/registry/crd/prune.ts',
      'src/registry/crd/defaulting.ts',
      'src/registry/crd/rules.ts',
    ],
    onWorkerPath: [],
  },
  {
    lazy: 'src/admission/plugins/off-by-default-plugins.lazy.ts',
    minimumOwn: 10,
    // The plugins off by default, file by file; the default-on ones and their helpers stay on the path.
    folders: [
      'src/admission/plugins/always-admit.ts',
      'src/admission/plugins/namespace-auto-provision.ts',
      'src/admission/plugins/namespace-exists.ts',
      'src/admission/plugins/security-context-deny.ts',
      'src/admission/plugins/limit-pod-hard-anti-affinity-topology.ts',
      'src/admission/plugins/node-restriction.ts',
      'src/admission/plugins/node-restriction/',
      'src/admission/plugins/always-pull-images.ts',
      'src/admission/plugins/image-policy-webhook.ts',
      'src/admission/plugins/pod-node-selector.ts',
      'src/admission/plugins/pod-toleration-restriction.ts',
      'src/admission/plugins/event-rate-limit.ts',
      'src/admission/plugins/extended-resource-toleration.ts',
      'src/admission/plugins/persistent-volume-label.ts',
      'src/admission/plugins/owner-references-permission-enforcement.ts',
      'src/admission/plugins/deny-service-external-i-ps.ts',
      'src/admission/plugins/always-deny.ts',
    ],
    onWorkerPath: [],
  },
  {
    lazy: 'src/admission/plugins/default-on-plugins.lazy.ts',
    minimumOwn: 10,
    // The plugins on by default, file by file (0122); the names, the order and their informers' table stay.
    folders: [
      'src/admission/plugins/namespace-lifecycle.ts',
      'src/admission/plugins/limit-ranger.ts',
      'src/admission/plugins/service-account.ts',
      'src/admission/plugins/taint-nodes-by-condition.ts',
      'src/admission/plugins/pod-security.ts',
      'src/admission/plugins/priority.ts',
      'src/admission/plugins/default-toleration-seconds.ts',
      'src/admission/plugins/default-storage-class.ts',
      'src/admission/plugins/storage-object-in-use-protection.ts',
      'src/admission/plugins/persistent-volume-claim-resize.ts',
      'src/admission/plugins/runtime-class.ts',
      'src/admission/plugins/certificate-approval.ts',
      'src/admission/plugins/certificate-signing.ts',
      'src/admission/plugins/cluster-trust-bundle-attest.ts',
      'src/admission/plugins/certificate-subject-restriction.ts',
      'src/admission/plugins/default-ingress-class.ts',
      'src/admission/plugins/mutating-admission-webhook.ts',
      'src/admission/plugins/validating-admission-policy.ts',
      'src/admission/plugins/validating-admission-webhook.ts',
      'src/admission/plugins/resource-quota.ts',
    ],
    onWorkerPath: [],
  },
  {
    lazy: 'src/admission/webhook/webhook-dispatch.lazy.ts',
    minimumOwn: 5,
    // The dispatch; the plugins list configurations through the source, and matching shares the types.
    folders: ['src/admission/webhook/'],
    onWorkerPath: [
      'src/admission/webhook/library.ts',
      'src/admission/webhook/source.ts',
      'src/admission/webhook/types.ts',
    ],
  },
  {
    lazy: 'src/server/post-start.lazy.ts',
    minimumOwn: 8,
    // The default RBAC policy and the start-up objects; the Node authorizer's `system:node` rules, the policy's
    // names (the CSR kinds and plugins spell groups and signers with them) and the rule coverage (RBAC's
    // escalation checks) stay on the path.
    folders: [
      'src/auth/policy/',
      'src/server/bootstrap-policy.ts',
      'src/server/startup-objects.ts',
      'src/machinery/startup/',
    ],
    onWorkerPath: ['src/auth/policy/names.ts', 'src/auth/policy/node-role.ts', 'src/auth/policy/rules.ts'],
  },
  {
    lazy: 'src/admission/pod-security/pod-security-checks.lazy.ts',
    minimumOwn: 15,
    // The plugin (default-on-plugins.lazy.ts, 0122) reads the configuration, the label keys and which kinds have a
    // pod template; the worker holds only the script's loader, which the plugins' script binds to.
    folders: ['src/admission/pod-security/'],
    onWorkerPath: ['src/admission/pod-security/library.ts'],
  },
  {
    lazy: 'src/admission/policy/policy-dispatch.lazy.ts',
    minimumOwn: 20,
    // The plugin lists the policies; the dispatch, matching and the CEL layer come with the first policy.
    folders: ['src/admission/policy/', 'src/admission/matching/', 'src/cel/'],
    onWorkerPath: ['src/admission/policy/library.ts', 'src/cel/engine.ts'],
  },
  {
    lazy: 'src/admission/backends/backend-calls.lazy.ts',
    minimumOwn: 10,
    // The store and the address resolution stay: a call to another address never loads the backends' code.
    folders: ['src/admission/backends/', 'src/cel/'],
    onWorkerPath: [
      'src/admission/backends/index.ts',
      'src/admission/backends/types.ts',
      'src/admission/backends/library.ts',
      'src/admission/backends/store.ts',
      'src/admission/backends/transport.ts',
      'src/admission/backends/address.ts',
      'src/cel/engine.ts',
    ],
  },
  {
    lazy: 'src/registry/kinds/admissionregistration/admission-configuration-validation.lazy.ts',
    minimumOwn: 10,
    // The kinds' registrations, their preparation and the rule checks workloads share stay on the path.
    folders: [
      'src/registry/kinds/admissionregistration/webhook-validation.ts',
      'src/registry/kinds/admissionregistration/validatingadmissionpolicy/validation.ts',
      'src/registry/kinds/admissionregistration/validatingadmissionpolicy/match-resources.ts',
      'src/registry/kinds/admissionregistration/validatingadmissionpolicybinding/validation.ts',
      'src/cel/',
    ],
    onWorkerPath: ['src/cel/engine.ts'],
  },
  {
    lazy: 'src/registry/validation/workload-checks.lazy.ts',
    minimumOwn: 1,
    // The workload kinds' selector and schedule checks; the controllers hold their own copy of the cron parser.
    folders: ['src/registry/validation/workload.ts', 'src/machinery/cron.ts'],
    onWorkerPath: [],
  },
  {
    lazy: 'src/fieldmanager/field-management.lazy.ts',
    // Field ownership is recorded by a write and merged by an apply; a first visit only reads (0119).
    minimumOwn: 15,
    folders: ['src/fieldmanager/'],
    // The write options' checks (the manager's name) stay with the handlers; the patch machinery is patch.lazy.ts's.
    onWorkerPath: ['src/fieldmanager/library.ts', 'src/fieldmanager/manager-name.ts'],
  },
  {
    lazy: 'src/http/handlers/patch.lazy.ts',
    minimumOwn: 5,
    folders: [
      'src/http/handlers/patch.ts',
      'src/http/patch-decode.ts',
      'src/fieldmanager/strategic/',
      'src/fieldmanager/strategic-merge-patch.ts',
      'src/fieldmanager/merge-patch.ts',
    ],
    onWorkerPath: [],
  },
  {
    lazy: 'src/registry/kinds/reviews.lazy.ts',
    // The review kinds' storages; each registration (index.ts) stays, with the loader (reviews.ts).
    minimumOwn: 6,
    folders: ['src/registry/kinds/authorization/', 'src/registry/kinds/authentication/'],
    onWorkerPath: [
      'src/registry/kinds/authorization/subjectaccessreview/index.ts',
      'src/registry/kinds/authorization/selfsubjectaccessreview/index.ts',
      'src/registry/kinds/authorization/localsubjectaccessreview/index.ts',
      'src/registry/kinds/authorization/selfsubjectrulesreview/index.ts',
      'src/registry/kinds/authentication/tokenreview/index.ts',
      'src/registry/kinds/authentication/selfsubjectreview/index.ts',
    ],
  },
  {
    lazy: 'src/registry/kinds/core/subresources.lazy.ts',
    // The core kinds' connect subresources, binding and token requests; registrations and the loader stay.
    minimumOwn: 10,
    folders: [
      'src/registry/kinds/core/pod/',
      'src/registry/kinds/core/node/proxy.ts',
      'src/registry/kinds/core/service/proxy.ts',
      'src/registry/kinds/core/serviceaccount/token.ts',
    ],
    onWorkerPath: [
      'src/registry/kinds/core/pod/index.ts',
      'src/registry/kinds/core/pod/ephemeral-containers.ts',
      'src/registry/kinds/core/pod/eviction-storage.ts',
      'src/registry/kinds/core/pod/qos.ts',
      'src/registry/kinds/core/pod/status.ts',
    ],
  },
  {
    lazy: 'src/registry/builtin-definitions.lazy.ts',
    // Every group's definitions but the core group's, meta's and the CRD kinds', with their Go field order (0134).
    minimumOwn: 1,
    folders: [
      'src/registry/generated/definitions-lazy.json',
      'src/registry/generated/go-field-order-lazy.json',
    ],
    onWorkerPath: [],
  },
  {
    lazy: 'src/http/protobuf/protobufjs.lazy.ts',
    // Both tables, nothing of them on the worker's path: the descriptor and the Go pointer fields; and the codec.
    minimumOwn: 3,
    folders: [
      'src/registry/generated/proto.json',
      'src/registry/generated/go-pointers.json',
      'src/http/protobuf/codec.ts',
      'src/http/protobuf/convert.ts',
      'src/http/protobuf/descriptor.ts',
    ],
    onWorkerPath: [],
  },
];

describe('the worker script leaves its lazy code out', () => {
  const worker = workerModules(entry);

  // The browser loads a lazy module's script by the LazyModule's name (the build names it for its file); Node
  // imports the file itself, so a name that differs would only fail in the browser.
  it('every LazyModule is named for the file it imports', () => {
    const uses: string[] = [];
    const wrong: string[] = [];
    for (const file of worker) {
      const text = readFileSync(file, 'utf8');
      const declared =
        /new LazyModule(?:<[^>]*>)?\(\s*'([^']+)',\s*\(\)\s*=>\s*import\('[^']*?([^/']+)\.lazy'\)/g;
      for (const m of text.matchAll(declared)) {
        uses.push(m[1] as string);
        if (m[1] !== m[2]) wrong.push(`${relative(root, file)}: '${m[1]}' loads ${m[2]}.lazy.ts`);
      }
    }
    expect(wrong).toEqual([]);
    expect(uses.length).toBeGreaterThanOrEqual(lazyModuleFiles(join(root, 'src')).length);
  });

  it('walks the whole server (not a wrong entry path ending it early)', () => {
    expect(worker.size).toBeGreaterThan(350);
  });

  it('no module on the worker’s path imports a package a lazy module wraps', () => {
    const lazyPackages = new Map<string, string>();
    for (const file of lazyModuleFiles(join(root, 'src')))
      for (const s of importsOf(file))
        if (!s.startsWith('.')) lazyPackages.set(packageOf(s), relative(root, file));
    expect(lazyPackages.size).toBeGreaterThan(0);

    const violations: string[] = [];
    for (const file of worker)
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('.')) continue;
        const lazy = lazyPackages.get(packageOf(specifier));
        if (lazy !== undefined)
          violations.push(`${relative(root, file)} imports ${specifier} (load it through ${lazy})`);
      }
    expect(violations).toEqual([]);
  });

  it.each(lazyCode)(
    '$lazy holds its folders’ code, off the worker’s path',
    ({ lazy, folders, onWorkerPath, minimumOwn }) => {
      const inFolders = (file: string) => folders.some((f) => relative(root, file).startsWith(f));
      const allowed = new Set(onWorkerPath.map((f) => join(root, f)));
      // Every module on the worker's path other than its entry has an importer there: name it.
      const violations: string[] = [];
      for (const file of worker)
        for (const specifier of importsOf(file)) {
          const target = specifier.startsWith('.') ? resolveLocal(file, specifier) : undefined;
          if (
            target === undefined ||
            target.endsWith('.lazy.ts') ||
            !inFolders(target) ||
            allowed.has(target)
          )
            continue;
          violations.push(`${relative(root, file)} imports ${specifier} (reach it through ${lazy})`);
        }
      expect(violations).toEqual([]);

      // The lazy script holds the rest of those folders itself, and takes only modules the worker holds.
      const graph = lazyModuleGraph(join(root, lazy), worker);
      expect([...graph.own].filter(inFolders).length).toBeGreaterThan(minimumOwn);
      for (const file of graph.shared) expect(worker.has(file)).toBe(true);
    },
  );
});
