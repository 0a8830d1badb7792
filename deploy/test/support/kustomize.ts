import { parseAllDocuments } from 'yaml';
import type { IContainer, IPodSpec } from 'kubernetes-models/v1';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { REPO_ROOT, runTool } from './external-tool';

/** One object of a rendered kustomization, before anything is known about its kind. */
export type KubernetesObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
};

/** `kubectl kustomize <dir>` (dir relative to the repository root), parsed into its objects. */
export function renderKustomization(dir: string): KubernetesObject[] {
  const output = runTool('kubectl', ['kustomize', dir], {
    installHint: 'Install kubectl, which bundles kustomize (Debian: apt-get install -y kubectl).',
  });
  return parseAllDocuments(output).map((document, index) => {
    if (document.errors.length > 0) throw new Error(`document ${index} of ${dir} does not parse: ${document.errors[0].message}`);
    return document.toJS() as KubernetesObject;
  });
}

export { REPO_ROOT };

/** The rendered objects of one overlay with the look-ups the checks need. */
export class RenderedManifests {
  constructor(readonly objects: KubernetesObject[]) {}

  ofKind(kind: string): KubernetesObject[] {
    return this.objects.filter((o) => o.kind === kind);
  }

  /** The object of that kind and name; fails the check when there is none. */
  get(kind: string, name: string): KubernetesObject {
    const found = this.objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!found) throw new Error(`no ${kind} named ${name}; there are: ${this.ofKind(kind).map((o) => o.metadata.name).join(', ') || 'none'}`);
    return found;
  }

  deployment(name: string): IDeployment {
    const object = this.get('Deployment', name);
    if (!Deployment.is(object)) throw new Error(`${name} is not an apps/v1 Deployment`);
    return object;
  }

  /**
   * A ConfigMap or Secret by the name a pod refers to. Generated ones carry a content-hash suffix in their name;
   * kustomize rewrites the references to match, so a reference always names an object exactly.
   */
  data(kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> | undefined {
    const object = this.objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!object) return undefined;
    const data = (object.data ?? {}) as Record<string, string>;
    return kind === 'Secret' ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])) : data;
  }

  /**
   * The environment a container starts with, as far as the manifests decide it: ConfigMaps from envFrom, then env
   * (later entries win, as in Kubernetes). A value from a Secret the rendered output does not contain (production:
   * created by the operator) is `{ secret, key }`.
   */
  containerEnvironment(container: IContainer): Map<string, EnvironmentValue> {
    const env = new Map<string, EnvironmentValue>();
    for (const source of container.envFrom ?? []) {
      const name = source.configMapRef?.name ?? source.secretRef?.name;
      const kind = source.configMapRef ? 'ConfigMap' : 'Secret';
      const data = name === undefined ? undefined : this.data(kind, name);
      if (data === undefined) throw new Error(`container ${container.name}: envFrom names ${kind} ${name}, which the overlay does not render`);
      for (const [key, value] of Object.entries(data)) env.set(key, { value });
    }
    for (const variable of container.env ?? []) {
      if (variable.value !== undefined) {
        env.set(variable.name, { value: variable.value });
        continue;
      }
      const secretRef = variable.valueFrom?.secretKeyRef;
      const configMapRef = variable.valueFrom?.configMapKeyRef;
      if (secretRef) {
        const value = this.data('Secret', secretRef.name ?? '')?.[secretRef.key];
        env.set(variable.name, value === undefined ? { secret: secretRef.name ?? '', key: secretRef.key } : { value, secret: secretRef.name, key: secretRef.key });
      } else if (configMapRef) {
        const value = this.data('ConfigMap', configMapRef.name ?? '')?.[configMapRef.key];
        if (value === undefined) throw new Error(`${variable.name}: ConfigMap ${configMapRef.name} has no key ${configMapRef.key}`);
        env.set(variable.name, { value });
      } else {
        env.set(variable.name, { value: '' });
      }
    }
    return env;
  }
}

export type EnvironmentValue = { value: string; secret?: string; key?: string } | { secret: string; key: string; value?: undefined };

/** The pod spec of a Deployment (every Deployment the overlays render has one). */
export function podSpec(deployment: IDeployment): IPodSpec {
  const spec = deployment.spec?.template.spec;
  if (!spec) throw new Error(`${deployment.metadata?.name} has no pod template`);
  return spec;
}

/** The single container of an app's pod. */
export function appContainer(deployment: IDeployment): IContainer {
  const containers = podSpec(deployment).containers;
  if (containers.length !== 1) throw new Error(`${deployment.metadata?.name} should run one container, runs ${containers.length}`);
  return containers[0];
}
