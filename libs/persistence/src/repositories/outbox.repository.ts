import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventMessageName, MessagePayloads } from '@docrender/contracts';
import { traceCarrier } from '@docrender/observability';
import { OutboxMessageEntity } from '../entities';

export class OutboxRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Stores a message to publish; call it inside the transaction of the change it announces. Returns its id. The
   * active trace context is stored with it, so the relay publishes it in the trace of the request or job that stored it.
   */
  async add<N extends EventMessageName>(name: N, payload: MessagePayloads[N], options: { id?: string; now?: Date } = {}): Promise<string> {
    const id = options.id ?? randomUUID();
    await this.manager.insert(OutboxMessageEntity, { id, messageName: name, payload, createdAt: options.now ?? new Date(), publishedAt: null, traceContext: traceCarrier() });
    return id;
  }
}
