/**
 * The differential kubectl steps: scenarios of command lines, each run on a
 * fresh Node host once with the real kubectl v1.27 and once with ours, in
 * order, from a working folder holding the scenario's files. Every command
 * family of issue 27 appears; a scenario's later steps read what its earlier
 * ones wrote, as a tutorial does.
 */

import { splitWords } from '../../src/kubectl/shell/words';
import { janeCsr, tlsCert, tlsKey } from './fixtures';

export interface Step {
  /** The words after `kubectl`. */
  args: string[];
  /** Standard input (for `-f -`). */
  stdin?: string;
}

export interface Scenario {
  name: string;
  profile: 'orch' | 'kubernetes';
  /** Files in the working folder, by relative path. */
  files?: Record<string, string>;
  steps: Step[];
}

/** One step from a command line as a shell would split it. */
const k = (line: string, stdin?: string): Step => ({
  args: splitWords(line),
  ...(stdin !== undefined ? { stdin } : {}),
});

const cmYaml = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels:
    app: shop
data:
  color: blue
  size: "3"
`;

const cmYamlChanged = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels:
    app: shop
    tier: web
data:
  color: green
  flavour: mint
`;

const deployYaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports:
        - containerPort: 80
`;

const multiDoc = `apiVersion: v1
kind: Namespace
metadata:
  name: team-a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: one
  namespace: team-a
data:
  k: v
---
apiVersion: v1
kind: Secret
metadata:
  name: two
  namespace: team-a
stringData:
  password: s3cret
`;

const csrYaml = (name: string) => `apiVersion: certificates.orch.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${janeCsr}
  signerName: orch.io/apiserver-client
  usages:
  - digital signature
  - key encipherment
  - client auth
`;

const longAnnotation =
  'This is a long description of the settings that goes on and on past the width at which the YAML printer folds plain scalars onto the next line';

export const scenarios: Scenario[] = [
  {
    name: 'discovery-and-config',
    profile: 'orch',
    steps: [
      k('version'),
      k('version -o json'),
      k('version --client -o yaml'),
      k('api-versions'),
      k('api-resources'),
      k('api-resources -o wide'),
      k('api-resources --namespaced=false'),
      k('api-resources --api-group=apps'),
      k('api-resources -o name'),
      k('api-resources --verbs=list --namespaced -o name'),
      k('cluster-info'),
      k('config get-contexts'),
      k('config current-context'),
      k('config get-contexts -o name'),
      k('config use-context alice'),
      k('config current-context'),
      k('get ns'),
      k('config use-context admin'),
      k('config use-context nobody'),
      k('auth can-i create pods'),
      k('auth can-i get secrets --as alice'),
      k('auth can-i list configmaps -n orch-system'),
      k("auth can-i '*' '*'"),
      k('auth can-i get pods --subresource=log'),
      k('auth whoami'),
      k('explain pods'),
    ],
  },
  {
    name: 'get',
    profile: 'orch',
    steps: [
      k('get ns'),
      k('get namespaces -o name'),
      k('get ns default -o yaml'),
      k('get ns default -o json'),
      k('get namespace/default namespace/orch-public -o name'),
      k("get ns -o jsonpath='{.items[*].metadata.name}'"),
      k('get ns default -o jsonpath={.metadata.name}{"\\n"}'),
      k('get ns -o jsonpath=\'{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}\''),
      k('get ns -o custom-columns=NAME:.metadata.name,PHASE:.status.phase'),
      k('get ns --show-labels'),
      k('get ns -L orch.io/metadata.name'),
      k('get ns --no-headers'),
      k('get ns --sort-by=.metadata.name -o name'),
      k('get ns -o wide'),
      k('get ns default -o jsonpath-as-json={.metadata.name}'),
      k('get sa -A'),
      k('get sa -n orch-system -o name'),
      k('get serviceaccounts,configmaps -n orch-public'),
      k('get pods'),
      k('get pods -A'),
      k('get nodes'),
      k('get foo'),
      k('get cm nope'),
      k('get cm nope kube-root-ca.crt -o name'),
      k('frob'),
      k('get --frob'),
      k('get'),
      k('get cm -n default --field-selector metadata.name=kube-root-ca.crt -o name'),
      k('get cm -l app=none'),
      k('get --raw /version'),
      k('get ns default -o go-template={{.metadata.name}}'),
      k('get ns default -o bogus'),
    ],
  },
  {
    name: 'create-generators',
    profile: 'orch',
    files: {
      'game.properties': 'enemies=aliens\nlives=3\n',
      'ui.properties': 'color.good=purple\ncolor.bad=yellow\n',
      'tls.crt': tlsCert,
      'tls.key': tlsKey,
    },
    steps: [
      k('create namespace demo'),
      k('create namespace demo'),
      k('create configmap app -n demo --from-literal=a=1 --from-literal=b=two'),
      k('get cm app -n demo -o yaml'),
      k('create configmap files -n demo --from-file=game.properties --from-file=ui=ui.properties'),
      k('get configmap files -n demo -o yaml'),
      k('describe configmap files -n demo'),
      k('create secret generic creds -n demo --from-literal=user=admin --from-literal=password=hunter2'),
      k('get secret creds -n demo -o yaml'),
      k('describe secret creds -n demo'),
      k(
        'create secret docker-registry reg -n demo --docker-username=u --docker-password=p --docker-server=r.example.com',
      ),
      k('create secret tls web-tls -n demo --cert=tls.crt --key=tls.key'),
      k('get secrets -n demo'),
      k('create serviceaccount bot -n demo'),
      k('get sa bot -n demo -o yaml'),
      k('create deployment web -n demo --image=nginx:1.25 --replicas=2 --port=80'),
      k('get deployment web -n demo -o yaml'),
      k('get deploy -n demo'),
      k('create service clusterip web -n demo --tcp=80:8080'),
      k('get service web -n demo -o jsonpath={.spec.ports}'),
      k('create job once -n demo --image=busybox -- echo hi'),
      k('get job once -n demo -o yaml'),
      k('create cronjob tick -n demo --image=busybox'),
      k("create cronjob tock -n demo --image=busybox --schedule='*/5 * * * *' -- date"),
      k('get cronjob tock -n demo -o yaml'),
      k('create role reader -n demo --verb=get,list --resource=pods,configmaps'),
      k('get role reader -n demo -o yaml'),
      k('create clusterrole watcher --verb=watch --resource=deployments.apps,services'),
      k('create rolebinding read-bob -n demo --role=reader --user=bob --group=devs'),
      k('create clusterrolebinding watch-devs --clusterrole=watcher --group=devs --serviceaccount=demo:bot'),
      k('get rolebinding read-bob -n demo -o yaml'),
      k('describe role reader -n demo'),
      k('describe clusterrole watcher'),
      k('describe rolebinding read-bob -n demo'),
      k('describe clusterrolebinding watch-devs'),
      k('create quota compute -n demo --hard=pods=10,requests.cpu=2'),
      k('get quota compute -n demo -o yaml'),
      k('create priorityclass high --value=1000 --description=important'),
      k('get priorityclass high -o yaml'),
      k('create deployment dry --image=nginx --dry-run=client -o yaml'),
      k('create configmap dry -n demo --from-literal=k=v --dry-run=client -o json'),
      k('create configmap dry2 -n demo --from-literal=k=v --dry-run=server -o name'),
      k('create configmap dry2 -n demo --from-literal=k=v --dry-run=server'),
      k('create namespace Bad_Name'),
      k('create configmap x --from-literal=novalue'),
      k('create secret generic', undefined),
      k('create frob x'),
      k('get all -n demo -o name'),
    ],
  },
  {
    name: 'apply-patch-label',
    profile: 'orch',
    files: {
      'cm.yaml': cmYaml,
      'cm-changed.yaml': cmYamlChanged,
      'deploy.yaml': deployYaml,
      'multi.yaml': multiDoc,
      'bad.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [broken\n',
      'unknown-field.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  a: b\nbogus: true\n',
      'dir/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dir-a\ndata:\n  x: "1"\n',
      'dir/b.json': '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dir-b"},"data":{"y":"2"}}\n',
    },
    steps: [
      k('apply -f cm.yaml'),
      k('apply -f cm.yaml'),
      k('get cm settings -o yaml'),
      k('apply -f cm-changed.yaml'),
      k('get cm settings -o yaml'),
      k('apply -f cm.yaml --dry-run=client'),
      k('apply -f cm.yaml --dry-run=server -o yaml'),
      k('apply -f deploy.yaml'),
      k('get deploy web -o wide'),
      k('apply -f multi.yaml'),
      k('get cm,secret -n team-a'),
      k('apply -f dir/'),
      k('apply -f -', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\ndata:\n  k: v\n'),
      k('apply -f bad.yaml'),
      k('apply -f unknown-field.yaml'),
      k('apply -f unknown-field.yaml --validate=false'),
      k('apply -f missing.yaml'),
      k('apply --server-side -f cm.yaml'),
      k('apply --server-side --field-manager=other -f cm-changed.yaml'),
      k('apply --server-side --field-manager=other --force-conflicts -f cm-changed.yaml'),
      k('get cm settings -o jsonpath={.data}'),
      k(`patch cm settings -p '{"data":{"extra":"yes"}}'`),
      k(`patch cm settings -p '{"data":{"extra":"yes"}}'`),
      k(`patch cm settings --type=merge -p '{"data":{"extra":null}}'`),
      k(`patch cm settings --type=json -p '[{"op":"add","path":"/data/j","value":"1"}]'`),
      k(`patch cm settings --type=json -p '[{"op":"remove","path":"/data/nope"}]'`),
      k(`patch cm nope -p '{"data":{}}'`),
      k(
        `patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.26"}]}}}}'`,
      ),
      k('get deploy web -o jsonpath={.spec.template.spec.containers[0].image}'),
      k('label cm settings env=prod'),
      k('label cm settings env=dev'),
      k('label cm settings env=dev --overwrite'),
      k('label cm settings env-'),
      k('label cm settings env-'),
      k('get cm settings --show-labels'),
      k(`annotate cm settings description='${longAnnotation}'`),
      k('get cm settings -o yaml'),
      k('annotate cm settings description-'),
      k('label cm -l app=shop team=blue'),
      k('scale deploy web --replicas=3'),
      k('scale deploy web --current-replicas=2 --replicas=4'),
      k('get deploy web -o jsonpath={.spec.replicas}'),
      k('replace -f cm.yaml'),
      k('get cm settings -o yaml'),
      k('diff -f cm.yaml'),
      k('delete cm from-stdin'),
      k('delete cm from-stdin'),
      k('delete -f dir/'),
      k('delete cm -l app=shop'),
      k('delete cm,secret --all -n team-a'),
      k('delete deploy web --dry-run=client'),
      k('delete deploy web --wait=false'),
      k('get cm'),
    ],
  },
  {
    name: 'describe-and-certificates',
    profile: 'orch',
    files: { 'csr-jane.yaml': csrYaml('jane'), 'csr-joe.yaml': csrYaml('joe') },
    steps: [
      k('describe ns default'),
      k('describe namespace orch-system'),
      k('describe sa default'),
      k('describe cm kube-root-ca.crt'),
      k('describe clusterrole view'),
      k('describe clusterrolebinding cluster-admin'),
      k('describe nodes'),
      k('describe foo bar'),
      k('describe cm nope'),
      k('create -f csr-jane.yaml'),
      k('create -f csr-joe.yaml'),
      k('get csr'),
      k('describe csr jane'),
      k('certificate approve jane'),
      k('certificate deny joe'),
      k('certificate approve nobody'),
      k('get csr jane -o jsonpath={.status.conditions[0].type}'),
      k('wait --for=condition=Approved csr/jane --timeout=5s'),
      k('create configmap gone'),
      k('delete cm gone --wait=false'),
      k('wait --for=delete cm/gone --timeout=5s'),
      k('describe priorityclass system-cluster-critical'),
      k('describe apiservice v1.apps'),
      k('get events'),
    ],
  },
  {
    name: 'kubernetes-profile',
    profile: 'kubernetes',
    files: { 'deploy.yaml': deployYaml },
    steps: [
      k('get ns'),
      k('get ns -o wide'),
      k('get ns -A'),
      k('api-resources --api-group=rbac.authorization.k8s.io'),
      k('explain pods'),
      k('explain pods.spec.containers.ports'),
      k('explain deployments --recursive'),
      k('explain cm.data'),
      k('apply -f deploy.yaml'),
      k('get deploy'),
      k('get deploy -o wide'),
      k('describe deploy web'),
      k('get sa,cm'),
      k('get clusterroles --sort-by=.metadata.name --no-headers -o custom-columns=N:.metadata.name'),
      k('get svc'),
      k('describe svc kubernetes'),
      k('get svc kubernetes -o yaml'),
      k('create namespace t'),
      k('get ns t --show-labels'),
      k('get cm -A --sort-by=.metadata.name'),
      k('get cm -n default -L app'),
      k('get priorityclasses'),
      k('get apiservices --no-headers -o name'),
    ],
  },
  {
    name: 'kubernetes-profile-rbac-and-auth',
    profile: 'kubernetes',
    files: {
      'csr-jane.yaml': csrYaml('jane')
        .replace('certificates.orch.io', 'certificates.k8s.io')
        .replace('orch.io/apiserver-client', 'kubernetes.io/kube-apiserver-client'),
    },
    steps: [
      k('create namespace demo'),
      k('create role reader -n demo --verb=get,list --resource=pods,configmaps,deployments.apps'),
      k('get role reader -n demo -o yaml'),
      k('describe role reader -n demo'),
      k('create clusterrole watcher --verb=watch --resource=services --non-resource-url=/healthz'),
      k('describe clusterrole watcher'),
      k(
        'create rolebinding read-bob -n demo --role=reader --user=bob --group=devs --serviceaccount=demo:default',
      ),
      k('describe rolebinding read-bob -n demo'),
      k('create clusterrolebinding watch-devs --clusterrole=watcher --group=devs'),
      k('describe clusterrolebinding watch-devs'),
      k('get rolebindings -n demo'),
      k('get clusterrole watcher -o wide'),
      k('auth can-i create pods'),
      k('auth can-i get configmaps -n demo --as bob'),
      k('auth can-i list pods -n demo --as bob'),
      k('auth can-i delete pods -n demo --as bob'),
      k('auth can-i get /healthz --as-group=devs --as=carol'),
      k('auth can-i get secrets --as alice'),
      k('get secrets -n demo --as alice'),
      k('create priorityclass high --value=1000 --description=important'),
      k('describe priorityclass high'),
      k('create -f csr-jane.yaml'),
      k('describe csr jane'),
      k('certificate approve jane'),
      k('certificate approve jane'),
      k('get csr jane -o jsonpath={.status.conditions[0].reason}'),
      k('wait --for=condition=Approved csr/jane --timeout=10s'),
      k('create serviceaccount bot -n demo'),
      k('describe sa bot -n demo'),
      k('create secret generic s -n demo --from-literal=a=b'),
      k('describe secret s -n demo'),
      k('create deployment web -n demo --image=nginx:1.25 --replicas=2'),
      k('describe deployment web -n demo'),
      k('create service nodeport web -n demo --tcp=80:8080'),
      k('get svc -n demo -o name'),
      k('get all -n demo'),
      k('describe ns demo'),
      k('create quota compute -n demo --hard=pods=10'),
      k('describe ns demo'),
      k('describe quota compute -n demo'),
      k('explain deployment.spec.strategy'),
      k('explain svc.spec.ports --recursive'),
      k('delete ns demo --wait=false'),
    ],
  },
  {
    name: 'pods',
    profile: 'orch',
    steps: [
      k('run web --image=nginx:1.25 --labels=app=web,tier=front --port=80 --env=MODE=demo'),
      k('run once --image=busybox --restart=Never -- sleep 10'),
      k('run dry --image=busybox --dry-run=client -o yaml -- echo hi'),
      k('get pods'),
      k('get pod web -o yaml'),
      k(
        'get pods -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[*].image,RESTART:.spec.restartPolicy',
      ),
      k('get pods -l app=web -o name'),
      k('describe pod web'),
      k('describe pods'),
      k('logs web'),
      k('logs nope'),
      k('exec web -- ls'),
      k('label pod web env=dev'),
      k('get pods --show-labels'),
      k('delete pod once --wait=false'),
      k('delete pod web --grace-period=0 --force'),
    ],
  },
];
