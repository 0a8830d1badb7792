import { WebhookEvent, WebhookHeader } from '@docrender/contracts';

/** What one delivery attempt sends besides the body (spec 6.2). */
export type DeliveryHeaderValues = {
  event: WebhookEvent;
  /** UUID stable across the retries of one logical delivery. */
  deliveryId: string;
  /** The X-Service-Signature value of this attempt (`WebhookSigner.sign`). */
  signature: string;
};

/** The request headers of one callback attempt: JSON content type and the three delivery headers; no Authorization (spec 5.5). */
export function deliveryHeaders(values: DeliveryHeaderValues): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [WebhookHeader.Signature]: values.signature,
    [WebhookHeader.Event]: values.event,
    [WebhookHeader.Delivery]: values.deliveryId,
  };
}
