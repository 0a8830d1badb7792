import { WebhookEvent } from '@docrender/contracts';
import { deliveryHeaders } from './delivery-headers';

describe('deliveryHeaders', () => {
  it('6.2: an attempt carries X-Service-Signature, X-Service-Event and X-Service-Delivery; 5.5: no Authorization', () => {
    const headers = deliveryHeaders({
      event: WebhookEvent.Completed,
      deliveryId: '0b9c1c2e-7f8a-4d3b-9e6f-1a2b3c4d5e6f',
      signature: 't=1700000000,v1=ab',
    });
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'X-Service-Signature': 't=1700000000,v1=ab',
      'X-Service-Event': 'render.completed',
      'X-Service-Delivery': '0b9c1c2e-7f8a-4d3b-9e6f-1a2b3c4d5e6f',
    });
  });
});
