import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'outbox' })
export class OutboxMessageEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'message_name', type: 'text' }) messageName!: string;
  @Column({ type: 'jsonb' }) payload!: unknown;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'published_at', type: 'timestamptz', nullable: true }) publishedAt!: Date | null;
  /** W3C trace context active when the message was stored (`traceparent`, `tracestate`); null when tracing was off. */
  @Column({ name: 'trace_context', type: 'jsonb', nullable: true }) traceContext!: Record<string, string> | null;
}
