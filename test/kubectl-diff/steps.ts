/**
 * The differential kubectl steps: scenarios of command lines, each run on a
 * fresh Node host once with the real kubectl v1.27 and once with ours, in
 * order, from a working folder holding the scenario's files. Every command
 * family of issue 27 appears; a scenario's later steps read what its earlier
 * ones wrote, as a tutorial does.
 */

import { splitWords } from '../../src/kubectl/shell/words';
import { janeCsr, pendingWebDeployment, tlsCert, tlsKey } from './fixtures';

export interface Step {
  /** The words after `kubectl`. */
  args: string[];
  /** Standard input (for `-f -`). */
  stdin?: string;
  /**
   * A read whose output follows the controllers (statuses, pods, quota usage): it is repeated until two
   * runs a moment apart print the same, so both kubectls see the state the controllers settle in rather
   * than wherever they happened to be on a loaded machine.
   */
  settle?: boolean;
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

/** A read of what controllers change, taken once it has settled. */
const settled = (line: string): Step => ({ ...k(line), settle: true });

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

/** Workloads whose pods match no node, so they stay Pending with or without simulated nodes. */
const rolloutWorkloads = {
  'web.yaml': pendingWebDeployment,
  'agents.yaml': `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      nodeSelector:
        disktype: none
      containers:
      - name: agent
        image: busybox:1.36
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 1
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      nodeSelector:
        disktype: none
      containers:
      - name: db
        image: redis:7
`,
  'node.yaml': `apiVersion: v1
kind: Node
metadata:
  name: n1
  labels:
    kubernetes.io/hostname: n1
`,
  'solo.yaml': `apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  nodeName: n1
  containers:
  - name: c
    image: nginx:1.25
`,
};

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
      settled('get pods'),
      settled('get pods -A'),
      settled('get nodes'),
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
      settled('get deployment web -n demo -o yaml'),
      settled('get deploy -n demo'),
      k('create service clusterip web -n demo --tcp=80:8080'),
      k('get service web -n demo -o jsonpath={.spec.ports}'),
      k('create job once -n demo --image=busybox -- echo hi'),
      settled('get job once -n demo -o yaml'),
      k('create cronjob tick -n demo --image=busybox'),
      // Once a year at New Year's midnight: a schedule that fires within minutes would make a Job in one host
      // and not yet in the other, moving the quota count and the `get all` listing below.
      k("create cronjob tock -n demo --image=busybox --schedule='0 0 1 1 *' -- date"),
      settled('get cronjob tock -n demo -o yaml'),
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
      settled('get quota compute -n demo -o yaml'),
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
      settled('get all -n demo -o name'),
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
      settled('get deploy web -o wide'),
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
      settled('describe ns default'),
      k('describe namespace orch-system'),
      k('describe sa default'),
      k('describe cm kube-root-ca.crt'),
      k('describe clusterrole view'),
      k('describe clusterrolebinding cluster-admin'),
      settled('describe nodes'),
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
      settled('get deploy'),
      settled('get deploy -o wide'),
      settled('describe deploy web'),
      k('get sa,cm'),
      k('get clusterroles --sort-by=.metadata.name --no-headers -o custom-columns=N:.metadata.name'),
      k('get svc'),
      settled('describe svc kubernetes'),
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
      settled('describe deployment web -n demo'),
      k('create service nodeport web -n demo --tcp=80:8080'),
      k('get svc -n demo -o name'),
      settled('get all -n demo'),
      settled('describe ns demo'),
      k('create quota compute -n demo --hard=pods=10'),
      settled('describe ns demo'),
      settled('describe quota compute -n demo'),
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
      settled('get pods'),
      settled('get pod web -o yaml'),
      k(
        'get pods -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[*].image,RESTART:.spec.restartPolicy',
      ),
      settled('get pods -l app=web -o name'),
      settled('describe pod web'),
      settled('describe pods'),
      k('logs web'),
      k('logs nope'),
      k('exec web -- ls'),
      k('label pod web env=dev'),
      settled('get pods --show-labels'),
      k('delete pod once --wait=false'),
      k('delete pod web --grace-period=0 --force'),
    ],
  },
  {
    name: 'rollouts',
    profile: 'kubernetes',
    files: rolloutWorkloads,
    steps: [
      k('create -f web.yaml'),
      k('wait --for=jsonpath={.status.updatedReplicas}=2 deployment/web'),
      k('rollout status deployment/web --watch=false'),
      k('rollout history deployment/web'),
      k('rollout status deployment/web --timeout=1s'),
      k('rollout status deployment/web --revision=3 --watch=false'),
      k('rollout status deployment/web --revision=-1'),
      k('rollout status'),
      k('rollout status deployment/nope'),
      k('rollout status configmap/kube-root-ca.crt'),
      k('rollout history configmap/kube-root-ca.crt'),
      k('rollout bogus'),
      k('set image deployment/web nginx=nginx:1.26'),
      k('set image deployment/web nope=nginx:1.26'),
      k('set image configmap/kube-root-ca.crt a=b'),
      k('set image deployment/web'),
      k('set bogus'),
      k('wait --for=jsonpath={.status.updatedReplicas}=1 deployment/web'),
      k('rollout status deployment/web --watch=false'),
      k('rollout history deployment/web'),
      k('rollout history deployment/web --revision=2'),
      k('rollout history deployment/web --revision=7'),
      k('rollout history deployment/web -o name'),
      k('rollout undo deployment/web --dry-run=client'),
      k('rollout undo deployment/web --to-revision=9'),
      k('rollout undo deployment/web --to-revision=2'),
      k('rollout undo deployment/web'),
      k('wait --for=jsonpath={.status.observedGeneration}=3 deployment/web'),
      k('rollout history deployment/web'),
      k('get deployment web -o jsonpath={.spec.template.spec.containers[0].image}'),
      k('rollout pause deployment/web'),
      k('rollout pause deployment/web'),
      k('rollout restart deployment/web'),
      k('rollout undo deployment/web'),
      k('rollout resume deployment/web'),
      k('rollout resume deployment/web'),
      k('rollout restart deployment/web'),
      k('rollout restart configmap/kube-root-ca.crt'),
      k('rollout pause configmap/kube-root-ca.crt'),
      k('rollout undo configmap/kube-root-ca.crt'),
      k('autoscale deployment web --max=5'),
      k('get hpa web -o jsonpath={.spec.metrics[0].resource.target.averageUtilization}'),
      k('autoscale deployment web --min=2 --max=4 --cpu-percent=70 --name=web2 --dry-run=client -o yaml'),
      k('autoscale deployment web --min=3 --max=2'),
      k('autoscale deployment web'),
      k('autoscale deployment web --max=0'),
      k('autoscale configmap kube-root-ca.crt --max=3'),
      k('autoscale deployment nope --max=3'),
      k('autoscale deployment web --max=5'),
      k('create -f agents.yaml'),
      k('wait --for=jsonpath={.status.observedGeneration}=1 daemonset/agent statefulset/db'),
      k('rollout status ds/agent --watch=false'),
      k('rollout status sts/db --watch=false'),
      k('rollout history ds/agent'),
      k('set image ds/agent agent=busybox:1.37'),
      k('set image sts/db db=redis:7.2'),
      k('wait --for=jsonpath={.status.observedGeneration}=2 daemonset/agent statefulset/db'),
      k('rollout history ds/agent'),
      k('rollout history ds/agent --revision=2'),
      k('rollout history sts/db --revision=1'),
      k('rollout undo ds/agent --to-revision=2'),
      k('rollout undo ds/agent'),
      k('rollout undo sts/db --to-revision=5'),
      k('rollout undo sts/db --to-revision=1'),
      k('rollout pause ds/agent'),
      k('create -f node.yaml'),
      k('cordon n1'),
      k('cordon n1'),
      k('uncordon n1'),
      k('uncordon n1'),
      k('cordon nope'),
      k('cordon'),
      k('cordon n1 --dry-run=server'),
      k('cordon -l kubernetes.io/hostname=n1'),
      k('uncordon n1'),
      k('taint nodes n1 dedicated=gpu:NoSchedule'),
      k('taint nodes n1 dedicated=gpu:NoSchedule'),
      k('taint nodes n1 dedicated=cpu:NoSchedule --overwrite'),
      k('taint nodes n1 other:PreferNoSchedule'),
      k('taint node n1 dedicated:NoSchedule-'),
      k('taint node n1 dedicated:NoSchedule-'),
      k('taint node n1 other-'),
      k('taint node n1'),
      k('taint node n1 bad=x:Wrong'),
      k('taint pods x a=b:NoSchedule'),
      k('taint node n1 a=b:NoSchedule a-'),
      k('taint node n1 a=b:NoSchedule c-'),
      k('drain n1'),
      k('uncordon n1'),
      k('drain n1 --dry-run=client'),
      k('drain n1 --dry-run=server'),
      k('create -f solo.yaml'),
      k('drain n1 --timeout=5s'),
      k('drain n1 --force --grace-period=0 --timeout=20s'),
      settled('get pods --field-selector=spec.nodeName=n1'),
      k('drain nope'),
      k('drain'),
      k('expose deployment web --port=80 --target-port=8080'),
      k('get svc web -o jsonpath={.spec.ports}'),
      k('expose deployment web --port=80'),
      k('expose deployment web --port=80,443 --name=w2 --dry-run=client -o yaml'),
      k('expose deployment web --name=noport'),
      k('expose configmap kube-root-ca.crt --port=80'),
      k('expose svc web --name=web3 --port=90 --labels=a=b --selector=x=y --dry-run=client -o json'),
      k('run lab --image=nginx:1.25 --port=8080 --labels=app=lab,tier=x'),
      k('expose pod lab --protocol=UDP --dry-run=server'),
      k('expose pod lab -o name'),
      k('get svc lab -o jsonpath={.spec.ports[0].port}/{.spec.ports[0].protocol}'),
      k('expose'),
      k(
        'expose deployment web --port=80 --cluster-ip=None --name=headless --session-affinity=ClientIP -o name',
      ),
      k('set resources deployment web --limits=cpu=200m,memory=512Mi'),
      k('set resources deployment web -c=nginx --requests=cpu=100m'),
      k('set resources deployment web -c=nginx --requests=cpu=100m'),
      k('set resources deployment web -c=nope --requests=cpu=100m'),
      k('set resources deployment web'),
      k('set resources deployment web --limits=cpu=abc'),
      k('set resources configmap kube-root-ca.crt --limits=cpu=1'),
      k('set resources'),
      k('get deployment web -o jsonpath={.spec.template.spec.containers[*].resources}'),
    ],
  },
];
