import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IContainer, IPodSpec, IProbe } from 'kubernetes-models/v1';
import type { IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import type { ITriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { jobsSettings, loadSettings, messagingSettings, renderApiSettings, renderBudgetSettings, renderSettings, type Setting } from '@docrender/config';
import { MessageName } from '@docrender/contracts';
import { AmqpTopology } from '@docrender/messaging';
import { renderPrefetch } from '@docrender/render-service';
import { declaredSetting, environmentProblems } from './support/declared-settings';
import { schemaViolation } from './support/kubernetes-schemas';
import { quantity, renderServiceMemoryMib } from './support/resources';
import { appContainer, podSpec, REPO_ROOT, renderKustomization, RenderedManifests, type EnvironmentValue, type KubernetesObject } from './support/kustomize';

/**
 * The four apps as deployed: Deployment name, the setting that names the port its probes are on, and the one its
 * metrics are on (the gateway's own metrics port: its API port is public, issue 17).
 */
const APPS = [
  { app: 'api-gateway', deployment: 'docrender-api-gateway', port: declaredSetting('PORT'), metricsPort: declaredSetting('GATEWAY_METRICS_PORT') },
  { app: 'render-service', deployment: 'docrender-render-service', port: declaredSetting('RENDER_SERVICE_PORT'), metricsPort: declaredSetting('RENDER_SERVICE_PORT') },
  { app: 'job-worker', deployment: 'docrender-job-worker', port: declaredSetting('JOB_WORKER_PORT'), metricsPort: declaredSetting('JOB_WORKER_PORT') },
  { app: 'webhook-dispatcher', deployment: 'docrender-webhook-dispatcher', port: declaredSetting('WEBHOOK_DISPATCHER_PORT'), metricsPort: declaredSetting('WEBHOOK_DISPATCHER_PORT') },
] as const;

/** The apps whose replica count an autoscaler owns (KEDA in production, the CPU fallback in dev). */
const QUEUE_SCALED = ['docrender-render-service', 'docrender-job-worker'];

/** apps/render-service/src/render-service.bootstrap.ts: the process exits at most this long after the shutdown grace. */
const RENDER_SERVICE_HARD_STOP_EXTRA_MS = 20_000;

const OVERLAYS = ['dev', 'production'] as const;
const rendered = new Map<string, RenderedManifests>();
const overlay = (name: string): RenderedManifests => {
  let manifests = rendered.get(name);
  if (!manifests) {
    manifests = new RenderedManifests(renderKustomization(`deploy/overlays/${name}`));
    rendered.set(name, manifests);
  }
  return manifests;
};

const plainEnvironment = (env: Map<string, EnvironmentValue>): Map<string, string | undefined> =>
  new Map([...env].map(([name, v]) => [name, v.value]));

/** A setting's value in a container's environment (its default when the manifests leave it unset). */
function settingValue<T>(env: Map<string, EnvironmentValue>, setting: Setting<T>): T {
  const entry = env.get(setting.env);
  if (entry && entry.value === undefined) throw new Error(`${setting.env} comes from a Secret the overlay does not contain`);
  return setting.parse(entry?.value);
}

const httpGetPath = (probe: IProbe | undefined): string | undefined => probe?.httpGet?.path;

function containerPort(container: IContainer, name: string): number {
  const port = container.ports?.find((p) => p.name === name);
  if (!port) throw new Error(`container ${container.name} has no port named ${name}`);
  return port.containerPort;
}

const isSubset = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** Pod specs of every workload the project builds: the four apps and the migration Job. */
function projectWorkloads(manifests: RenderedManifests): { name: string; pod: IPodSpec }[] {
  const job = manifests.get('Job', 'docrender-migrate') as KubernetesObject & { spec: { template: { spec: IPodSpec } } };
  return [
    ...APPS.map(({ deployment }) => ({ name: deployment, pod: podSpec(manifests.deployment(deployment)) })),
    { name: job.metadata.name, pod: job.spec.template.spec },
  ];
}

/** Every secretKeyRef of every container of every workload, dependencies included. */
function secretReferences(manifests: RenderedManifests): { workload: string; secret: string; key: string }[] {
  const references: { workload: string; secret: string; key: string }[] = [];
  for (const object of manifests.objects) {
    const pod = (object as { spec?: { template?: { spec?: IPodSpec } } }).spec?.template?.spec;
    for (const container of pod?.containers ?? []) {
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (ref) references.push({ workload: `${object.kind}/${object.metadata.name}`, secret: ref.name ?? '', key: ref.key });
      }
    }
  }
  return references;
}

describe.each(OVERLAYS)('Kubernetes overlay %s (kubectl kustomize)', (name) => {
  it('renders, and every object validates against the pinned Kubernetes 1.33 and KEDA schemas', () => {
    const manifests = overlay(name);
    expect(manifests.objects.length).toBeGreaterThan(10);
    const violations = manifests.objects.map((o) => ({ object: `${o.kind}/${o.metadata.name}`, violation: schemaViolation(o) })).filter((v) => v.violation);
    expect(violations).toEqual([]);
  });

  it('deploys the four apps, each with one container, a Service on its http port and a PodDisruptionBudget', () => {
    const manifests = overlay(name);
    for (const { deployment } of APPS) {
      const d = manifests.deployment(deployment);
      const podLabels = d.spec?.template.metadata?.labels;
      expect(isSubset(d.spec?.selector.matchLabels, podLabels)).toBe(true);
      const container = appContainer(d);
      const service = manifests.get('Service', deployment) as KubernetesObject & { spec: { selector: Record<string, string>; ports: { targetPort: string }[] } };
      expect(isSubset(service.spec.selector, podLabels)).toBe(true);
      expect(service.spec.ports.map((p) => p.targetPort)).toEqual(['http']);
      containerPort(container, 'http');
      const budget = manifests.get('PodDisruptionBudget', deployment) as KubernetesObject & {
        spec: { selector: { matchLabels: Record<string, string> }; maxUnavailable?: number; minAvailable?: number };
      };
      expect(isSubset(budget.spec.selector.matchLabels, podLabels)).toBe(true);
      expect(budget.spec.maxUnavailable ?? budget.spec.minAvailable).toBeDefined();
    }
  });

  it.each(APPS)('4.17: $app is ready on GET /v1/meta/status and alive on GET /v1/meta/version, on the port it listens on', ({ deployment, port }) => {
    const manifests = overlay(name);
    const container = appContainer(manifests.deployment(deployment));
    const env = manifests.containerEnvironment(container);
    expect(containerPort(container, 'http')).toBe(settingValue(env, port));
    expect(httpGetPath(container.readinessProbe)).toBe('/v1/meta/status');
    expect(httpGetPath(container.livenessProbe)).toBe('/v1/meta/version');
    expect(httpGetPath(container.startupProbe)).toBe('/v1/meta/version');
    for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) expect(probe?.httpGet?.port).toBe('http');
    // The status probe bounds each dependency check at 3 s (libs/platform readiness.ts): the kubelet must wait longer.
    expect(container.readinessProbe?.timeoutSeconds).toBeGreaterThan(3);
  });

  it.each(APPS)('$app: Prometheus scrape annotations name its metrics port and /metrics (the gateway: not its public port)', ({ deployment, port, metricsPort }) => {
    const manifests = overlay(name);
    const d = manifests.deployment(deployment);
    const annotations = d.spec?.template.metadata?.annotations ?? {};
    const env = manifests.containerEnvironment(appContainer(d));
    expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(settingValue(env, metricsPort)), 'prometheus.io/path': '/metrics' });
    if (deployment === 'docrender-api-gateway') expect(settingValue(env, metricsPort)).not.toBe(settingValue(env, port));
  });

  it('every app container and the migration Job request and limit CPU and memory', () => {
    for (const { name: workload, pod } of projectWorkloads(overlay(name))) {
      for (const container of pod.containers) {
        const { requests, limits } = container.resources ?? {};
        expect({ workload, cpu: requests?.cpu !== undefined, memory: requests?.memory !== undefined }).toEqual({ workload, cpu: true, memory: true });
        expect({ workload, cpu: limits?.cpu !== undefined, memory: limits?.memory !== undefined }).toEqual({ workload, cpu: true, memory: true });
      }
    }
  });

  it('every app and the migration Job run as a non-root user on a read-only root file system with a writable /tmp', () => {
    for (const { name: workload, pod } of projectWorkloads(overlay(name))) {
      expect({ workload, runAsNonRoot: pod.securityContext?.runAsNonRoot }).toEqual({ workload, runAsNonRoot: true });
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        expect({ workload, ...container.securityContext }).toEqual({
          workload,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
        const volume = pod.volumes?.find((v) => v.name === tmp?.name);
        expect({ workload, tmpIsEmptyDir: volume?.emptyDir !== undefined }).toEqual({ workload, tmpIsEmptyDir: true });
      }
    }
  });

  it('8: every app has longer to stop than a render takes (60 s budget), so a rolling update never cuts one short', () => {
    const manifests = overlay(name);
    for (const { deployment } of APPS) {
      const d = manifests.deployment(deployment);
      const env = manifests.containerEnvironment(appContainer(d));
      const budgetMs = settingValue(env, renderBudgetSettings.renderBudgetMs);
      expect(budgetMs).toBe(60_000);
      expect((podSpec(d).terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(budgetMs);
    }
    const gateway = manifests.deployment('docrender-api-gateway');
    const gatewayEnv = manifests.containerEnvironment(appContainer(gateway));
    const gatewayPreStopMs = 5_000;
    expect((podSpec(gateway).terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(
      settingValue(gatewayEnv, renderBudgetSettings.renderBudgetMs) + settingValue(gatewayEnv, renderBudgetSettings.replyGraceMs) + gatewayPreStopMs,
    );
    expect(appContainer(gateway).lifecycle?.preStop?.exec?.command).toEqual(['sleep', String(gatewayPreStopMs / 1000)]);
    const worker = manifests.deployment('docrender-job-worker');
    const workerEnv = manifests.containerEnvironment(appContainer(worker));
    expect((podSpec(worker).terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(
      settingValue(workerEnv, renderBudgetSettings.renderBudgetMs) + settingValue(workerEnv, renderBudgetSettings.replyGraceMs),
    );
  });

  it('8: the render service finishes the renders in hand on SIGTERM and exits before the kubelet kills it', () => {
    const manifests = overlay(name);
    const d = manifests.deployment('docrender-render-service');
    const env = manifests.containerEnvironment(appContainer(d));
    const shutdownGraceMs = settingValue(env, renderSettings.shutdownGraceMs);
    expect(shutdownGraceMs).toBeGreaterThan(settingValue(env, renderBudgetSettings.renderBudgetMs));
    expect((podSpec(d).terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(shutdownGraceMs + RENDER_SERVICE_HARD_STOP_EXTRA_MS);
  });

  it('issue 31 and issue 32 item 3: the render service runs a compile thread per CPU of its limit, and its memory limit holds Chromium printing the longest document it accepts and every thread at its heap', () => {
    const manifests = overlay(name);
    const container = appContainer(manifests.deployment('docrender-render-service'));
    const env = manifests.containerEnvironment(container);
    // set explicitly: the default (os.availableParallelism()) counts the node's cores, not the pod's
    expect(env.get(renderSettings.compileThreads.env)?.value).toBeDefined();
    const threads = settingValue(env, renderSettings.compileThreads);
    expect(threads).toBe(quantity(container.resources?.limits?.cpu, 'cpu'));
    // set explicitly: the default (8 MB) needs a larger pod
    expect(env.get(renderSettings.maxPrintedHtmlMb.env)?.value).toBeDefined();
    const needed = renderServiceMemoryMib({
      compileThreads: threads,
      compileHeapMb: settingValue(env, renderSettings.compileHeapMb),
      maxPrintedHtmlMb: settingValue(env, renderSettings.maxPrintedHtmlMb),
    });
    expect(quantity(container.resources?.limits?.memory, 'MiB')).toBeGreaterThanOrEqual(needed);
  });

  it('every variable an app container gets is a declared setting with a value the app accepts', () => {
    const manifests = overlay(name);
    for (const { deployment } of APPS) {
      const env = manifests.containerEnvironment(appContainer(manifests.deployment(deployment)));
      expect({ deployment, problems: environmentProblems(plainEnvironment(env)) }).toEqual({ deployment, problems: [] });
      // Without it an app falls back to the filesystem blob store, which a read-only root file system refuses.
      expect(env.get('S3_ENDPOINT')?.value).toMatch(/^https?:\/\//);
      if (deployment !== 'docrender-render-service') expect(env.get('DATABASE_URL')).toBeDefined();
      expect(env.get('AMQP_URL')).toBeDefined();
    }
  });

  it('the render service sizes its Chromium pool explicitly (the defaults would count the node\'s cores, not the pod\'s)', () => {
    const manifests = overlay(name);
    const container = appContainer(manifests.deployment('docrender-render-service'));
    const env = manifests.containerEnvironment(container);
    expect(env.get(renderSettings.browsers.env)?.value).toBeDefined();
    expect(env.get(renderSettings.pagesPerBrowser.env)?.value).toBeDefined();
    const gatewayEnv = manifests.containerEnvironment(appContainer(manifests.deployment('docrender-api-gateway')));
    expect(gatewayEnv.get(renderApiSettings.scanThreads.env)?.value).toBeDefined();
  });

  it('the migration Job runs the admin CLI\'s migrate command against DATABASE_URL', () => {
    const manifests = overlay(name);
    const job = manifests.get('Job', 'docrender-migrate') as KubernetesObject & { spec: { backoffLimit?: number; template: { spec: IPodSpec } } };
    const [container] = job.spec.template.spec.containers;
    expect(container.image).toMatch(/(^|\/)(docrender\/)?admin-cli:/);
    expect(container.args).toEqual(['migrate']);
    expect(container.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key).toBe('DATABASE_URL');
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(job.spec.backoffLimit).toBeGreaterThan(0);
  });

  it('issue 22: the HTTPRoute (Gateway API) sends /v1 and the OpenAPI pages to the gateway, and nothing that reaches /metrics; no Ingress', () => {
    const manifests = overlay(name);
    const route = manifests.get('HTTPRoute', 'docrender-api-gateway') as KubernetesObject & {
      spec: { rules: { matches: { path: { type: string; value: string } }[]; backendRefs: { name: string; port: number }[]; timeouts?: { request: string } }[] };
    };
    const paths = route.spec.rules.flatMap((r) => r.matches.map((m) => m.path));
    expect(paths.map((p) => `${p.type} ${p.value}`).sort()).toEqual(['Exact /docs-json', 'PathPrefix /docs', 'PathPrefix /v1']);
    for (const rule of route.spec.rules) {
      expect(rule.backendRefs).toEqual([{ name: 'docrender-api-gateway', port: 80 }]);
      // A render may take its whole 60 s budget plus the reply grace.
      expect(rule.timeouts?.request).toBe('120s');
    }
    for (const p of paths) {
      const reachesMetrics = p.value === '/metrics' || (p.type === 'PathPrefix' && (p.value === '/' || '/metrics'.startsWith(`${p.value}/`)));
      expect(reachesMetrics).toBe(false);
    }
    const service = manifests.get('Service', 'docrender-api-gateway') as KubernetesObject & { spec: { ports: { port: number }[] } };
    expect(service.spec.ports.map((p) => p.port)).toContain(80);
    expect(manifests.ofKind('Ingress')).toEqual([]);
  });

  it('the gateway scales on CPU with a HorizontalPodAutoscaler; the render service and job worker on one autoscaler each', () => {
    const manifests = overlay(name);
    const hpa = manifests.get('HorizontalPodAutoscaler', 'docrender-api-gateway') as KubernetesObject & {
      spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; metrics: { resource?: { name: string } }[] };
    };
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'docrender-api-gateway' });
    expect(hpa.spec.metrics.map((m) => m.resource?.name)).toEqual(['cpu']);
    const targets = [
      ...manifests.ofKind('HorizontalPodAutoscaler').map((o) => (o as unknown as { spec: { scaleTargetRef: { name: string } } }).spec.scaleTargetRef.name),
      ...manifests.ofKind('ScaledObject').map((o) => (o as unknown as IScaledObject).spec.scaleTargetRef.name),
    ];
    for (const deployment of [...QUEUE_SCALED, 'docrender-api-gateway']) {
      expect({ deployment, autoscalers: targets.filter((t) => t === deployment).length }).toEqual({ deployment, autoscalers: 1 });
      // An apply must not reset the count the autoscaler set.
      expect(manifests.deployment(deployment).spec?.replicas).toBeUndefined();
    }
  });

  it('one image tag for every app of a release', () => {
    const manifests = overlay(name);
    const images = projectWorkloads(manifests).flatMap(({ pod }) => pod.containers.map((c) => c.image ?? ''));
    const tags = new Set(images.map((image) => image.split(':').pop()));
    expect(tags.size).toBe(1);
    expect(images.every((image) => /:[\w.-]+$/.test(image) && !image.endsWith(':latest'))).toBe(true);
  });
});

describe('Kubernetes overlay production: external dependencies, KEDA', () => {
  const manifests = (): RenderedManifests => overlay('production');

  it('runs no PostgreSQL, RabbitMQ or object store of its own, and renders no Secret (the operator provides them)', () => {
    expect(manifests().ofKind('StatefulSet')).toEqual([]);
    expect(manifests().ofKind('Secret')).toEqual([]);
  });

  it('every Secret key a pod or KEDA reads is listed in deploy/README.md', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'deploy/README.md'), 'utf8');
    const references = secretReferences(manifests()).map(({ secret, key }) => `${secret}/${key}`);
    for (const auth of manifests().ofKind('TriggerAuthentication') as unknown as ITriggerAuthentication[]) {
      for (const ref of auth.spec.secretTargetRef ?? []) references.push(`${ref.name}/${ref.key}`);
    }
    expect(references.length).toBeGreaterThan(0);
    const undocumented = [...new Set(references)].filter((ref) => {
      const [secret, key] = ref.split('/');
      return !readme.includes(`\`${secret}\``) || !readme.includes(`\`${key}\``);
    });
    expect(undocumented).toEqual([]);
  });

  it('the apps leave migrations to the Job (their database user needs no DDL rights)', () => {
    for (const { deployment } of APPS) {
      const env = manifests().containerEnvironment(appContainer(manifests().deployment(deployment)));
      expect({ deployment, runMigrations: settingValue(env, declaredSetting('DB_RUN_MIGRATIONS')) }).toEqual({ deployment, runMigrations: false });
    }
  });

  it('images come from a registry with a release tag; the HTTPRoute serves PUBLIC_BASE_URL\'s host on the Gateway\'s HTTPS listener', () => {
    const images = projectWorkloads(manifests()).flatMap(({ pod }) => pod.containers.map((c) => c.image ?? ''));
    for (const image of images) expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]+\/.+:\d+\.\d+\.\d+$/);
    const gatewayEnv = manifests().containerEnvironment(appContainer(manifests().deployment('docrender-api-gateway')));
    const publicHost = new URL(gatewayEnv.get('PUBLIC_BASE_URL')?.value ?? '').hostname;
    expect(new URL(gatewayEnv.get('PUBLIC_BASE_URL')?.value ?? '').protocol).toBe('https:');
    const route = manifests().get('HTTPRoute', 'docrender-api-gateway') as KubernetesObject & { spec: { hostnames: string[]; parentRefs: { sectionName?: string }[] } };
    expect(route.spec.hostnames).toEqual([publicHost]);
    expect(route.spec.parentRefs.map((p) => p.sectionName)).toEqual(['https']);
  });

  it('KEDA scales the render service on render.document and render.preview, with what one pod keeps at work as the target per pod (its pages and half as many ready, not its batch-printing prefetch)', () => {
    const renderService = manifests().deployment('docrender-render-service');
    const env = manifests().containerEnvironment(appContainer(renderService));
    const topology = new AmqpTopology(loadSettings(messagingSettings, { AMQP_QUEUE_PREFIX: env.get('AMQP_QUEUE_PREFIX')?.value }));
    const concurrentRenders = settingValue(env, renderSettings.browsers) * settingValue(env, renderSettings.pagesPerBrowser);
    const scaled = manifests().get('ScaledObject', 'docrender-render-service') as unknown as IScaledObject;
    expect(scaled.spec.scaleTargetRef).toMatchObject({ name: 'docrender-render-service' });
    expect(scaled.spec.triggers.map((t) => ({ type: t.type, ...t.metadata }))).toEqual([
      { type: 'rabbitmq', protocol: 'http', mode: 'QueueLength', queueName: topology.workQueue(MessageName.RenderDocument), value: String(renderPrefetch(concurrentRenders)) },
      { type: 'rabbitmq', protocol: 'http', mode: 'QueueLength', queueName: topology.workQueue(MessageName.RenderPreview), value: String(renderPrefetch(concurrentRenders)) },
    ]);
    expect(topology.workQueue(MessageName.RenderDocument)).toBe('render.document');
    // Synchronous renders wait on render.document: never scale to zero.
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(scaled.spec.fallback?.replicas).toBeGreaterThanOrEqual(scaled.spec.minReplicaCount ?? 0);
  });

  it('KEDA scales the job worker on job.run, with the jobs one pod runs at once as the target per pod', () => {
    const worker = manifests().deployment('docrender-job-worker');
    const env = manifests().containerEnvironment(appContainer(worker));
    const topology = new AmqpTopology(loadSettings(messagingSettings, { AMQP_QUEUE_PREFIX: env.get('AMQP_QUEUE_PREFIX')?.value }));
    const scaled = manifests().get('ScaledObject', 'docrender-job-worker') as unknown as IScaledObject;
    expect(scaled.spec.scaleTargetRef).toMatchObject({ name: 'docrender-job-worker' });
    expect(scaled.spec.triggers.map((t) => ({ type: t.type, ...t.metadata }))).toEqual([
      { type: 'rabbitmq', protocol: 'http', mode: 'QueueLength', queueName: topology.workQueue(MessageName.RunJob), value: String(settingValue(env, jobsSettings.concurrentJobs)) },
    ]);
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(scaled.spec.fallback?.failureThreshold).toBeGreaterThan(0);
  });

  it('every KEDA trigger authenticates with the TriggerAuthentication that reads the RabbitMQ host from a Secret', () => {
    const auths = manifests().ofKind('TriggerAuthentication') as unknown as ITriggerAuthentication[];
    for (const scaled of manifests().ofKind('ScaledObject') as unknown as IScaledObject[]) {
      for (const trigger of scaled.spec.triggers) {
        const auth = auths.find((a) => a.metadata?.name === trigger.authenticationRef?.name);
        expect(auth?.spec.secretTargetRef?.map((r) => r.parameter)).toEqual(['host']);
      }
    }
  });
});

describe('Kubernetes overlay dev: in-cluster dependencies, CPU autoscaling', () => {
  const manifests = (): RenderedManifests => overlay('dev');

  it('runs one PostgreSQL, RabbitMQ (with management) and SeaweedFS, and the apps\' URLs name their Services', () => {
    const m = manifests();
    for (const dependency of ['docrender-postgres', 'docrender-rabbitmq', 'docrender-seaweedfs']) {
      expect((m.get('StatefulSet', dependency) as unknown as { spec: { replicas: number } }).spec.replicas).toBe(1);
    }
    const servicePorts = new Map(
      m.ofKind('Service').map((s) => [s.metadata.name, ((s as unknown as { spec: { ports: { port: number }[] } }).spec.ports ?? []).map((p) => p.port)]),
    );
    const env = m.containerEnvironment(appContainer(m.deployment('docrender-job-worker')));
    for (const variable of ['DATABASE_URL', 'AMQP_URL', 'S3_ENDPOINT']) {
      const url = new URL(env.get(variable)?.value ?? '');
      expect({ variable, port: servicePorts.get(url.hostname)?.includes(Number(url.port)) }).toEqual({ variable, port: true });
    }
    expect(servicePorts.get('docrender-rabbitmq')).toContain(15672);
  });

  it('0017: SeaweedFS is pinned by release and digest, takes the apps\' own S3 keys, and is ready when S3 answers', () => {
    const m = manifests();
    const [store] = (m.get('StatefulSet', 'docrender-seaweedfs') as unknown as { spec: { template: { spec: IPodSpec } } }).spec.template.spec.containers;
    expect(store.image).toMatch(/^chrislusf\/seaweedfs:\d+\.\d+@sha256:[0-9a-f]{64}$/);
    expect(store.args?.slice(0, 2)).toEqual(['mini', '-dir=/data']);
    const ref = (name: string) => store.env?.find((variable) => variable.name === name)?.valueFrom?.secretKeyRef;
    const appSecret = m.containerEnvironment(appContainer(m.deployment('docrender-job-worker')));
    for (const [variable, key] of [['AWS_ACCESS_KEY_ID', 'S3_ACCESS_KEY'], ['AWS_SECRET_ACCESS_KEY', 'S3_SECRET_KEY']] as const) {
      expect({ variable, key: ref(variable)?.key, secret: ref(variable)?.name }).toEqual({ variable, key, secret: appSecret.get(key)?.secret });
    }
    expect(store.readinessProbe?.httpGet).toEqual({ path: '/healthz', port: 's3' });
    expect(containerPort(store, 's3')).toBe(8333);
  });

  it('every Secret a pod reads is rendered with that key', () => {
    const m = manifests();
    const missing = secretReferences(m).filter(({ secret, key }) => m.data('Secret', secret)?.[key] === undefined);
    expect(missing).toEqual([]);
  });

  it('the fallback without KEDA: CPU HorizontalPodAutoscalers for the render service and the job worker', () => {
    const m = manifests();
    expect(m.ofKind('ScaledObject')).toEqual([]);
    for (const deployment of QUEUE_SCALED) {
      const hpa = m.get('HorizontalPodAutoscaler', deployment) as KubernetesObject & {
        spec: { scaleTargetRef: { name: string }; metrics: { resource?: { name: string } }[] };
      };
      expect(hpa.spec.scaleTargetRef.name).toBe(deployment);
      expect(hpa.spec.metrics.map((metric) => metric.resource?.name)).toEqual(['cpu']);
    }
  });
});

describe('Kubernetes component ingress: the Ingress kept as an option (issue 22)', () => {
  it('on top of the production overlay it replaces the HTTPRoute with a schema-valid Ingress of the same public paths', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docrender-ingress-option-'));
    try {
      // kustomize takes relative paths only.
      const deploy = path.relative(dir, path.join(REPO_ROOT, 'deploy'));
      writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ${deploy}/overlays/production\ncomponents:\n  - ${deploy}/components/ingress\n`,
      );
      const manifests = new RenderedManifests(renderKustomization(dir));
      expect(manifests.ofKind('HTTPRoute')).toEqual([]);
      const ingress = manifests.get('Ingress', 'docrender-api-gateway') as KubernetesObject & {
        spec: { rules: { http: { paths: { path: string; pathType: string; backend: { service: { name: string; port: { name: string } } } }[] } }[] };
      };
      expect(schemaViolation(ingress)).toBeNull();
      const paths = ingress.spec.rules.flatMap((r) => r.http.paths);
      expect(paths.map((p) => `${p.pathType} ${p.path}`).sort()).toEqual(['Exact /docs-json', 'Prefix /docs', 'Prefix /v1', 'Prefix /workspace']);
      // the workspace (issue 35) has its own Service; everything else is the gateway's
      for (const p of paths) {
        expect(p.backend.service).toEqual({ name: p.path === '/workspace' ? 'docrender-workspace' : 'docrender-api-gateway', port: { name: 'http' } });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
