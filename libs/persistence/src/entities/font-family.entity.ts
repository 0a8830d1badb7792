import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'font_families' })
export class FontFamilyEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  /** The value templates use as fontFamily. */
  @Column({ type: 'text' }) family!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}
