import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { HTTPRoute } from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1';
import type { KubernetesObject } from './kustomize';

/**
 * The JSON schemas every rendered object is checked against, offline, pinned by the exact versions in package.json:
 * - Kubernetes kinds: kubernetes-models 4.5.1, generated from the upstream OpenAPI of Kubernetes 1.33 (it knows
 *   Lifecycle.stopSignal, new in 1.33, and nothing of 1.34; the package README's "1.27.1" badge is stale);
 * - KEDA kinds: @kubernetes-models/keda 0.4.2, generated from KEDA's CRDs (the 2.10/2.11 generation: fallback and
 *   horizontalPodAutoscalerConfig.behavior, no initialCooldownPeriod), so the KEDA fields used here exist since 2.10;
 * - Gateway API kinds: @kubernetes-models/gateway-api 0.5.1, generated from the Gateway API CRDs (v1 HTTPRoute with
 *   `timeouts`, standard channel since Gateway API 1.2).
 * Both check types, required fields, enumerations and formats (quantities, ports). Neither rejects an unknown field
 * (the Kubernetes schemas do not say additionalProperties: false), so a misspelt optional field passes; the
 * invariant checks read the fields that matter at their exact paths.
 * An object of a kind missing here fails: every kind the overlays render must be checked.
 */
type ModelClass = { new (data: never): { validate(): void } };

const MODELS: Record<string, ModelClass> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'gateway.networking.k8s.io/v1/HTTPRoute': HTTPRoute,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
};

/**
 * kustomize folds long base64 values of generated Secrets over several lines; the API server's base64 decoder (Go's
 * encoding/base64) skips line breaks, the schema's `byte` format does not. Line breaks are removed before validating.
 */
function asTheApiServerReadsIt(object: KubernetesObject): KubernetesObject {
  if (object.kind !== 'Secret' || typeof object.data !== 'object' || object.data === null) return object;
  const data = Object.fromEntries(Object.entries(object.data as Record<string, string>).map(([k, v]) => [k, v.replace(/[\r\n]/g, '')]));
  return { ...object, data };
}

/** Why `object` does not match its schema, or null when it does. */
export function schemaViolation(object: KubernetesObject): string | null {
  const type = `${object.apiVersion}/${object.kind}`;
  const Model = MODELS[type];
  if (!Model) return `no schema registered for ${type}`;
  try {
    new Model(asTheApiServerReadsIt(object) as never).validate();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
