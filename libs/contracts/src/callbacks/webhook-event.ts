/** Spec 6.1: the X-Service-Event header values. */
export enum WebhookEvent {
  Progress = 'render.progress',
  Completed = 'render.completed',
  Failed = 'render.failed',
}

/** Spec 6.2 delivery headers. */
export const WebhookHeader = {
  Signature: 'X-Service-Signature',
  Event: 'X-Service-Event',
  Delivery: 'X-Service-Delivery',
} as const;
