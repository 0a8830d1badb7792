import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'font_files' })
export class FontFileEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'font_family_id', type: 'uuid' }) fontFamilyId!: string;
  @Column({ type: 'integer' }) weight!: number;
  @Column({ type: 'text' }) style!: 'normal' | 'italic';
  /** woff2, woff, ttf or otf. */
  @Column({ type: 'text' }) format!: string;
  @Column({ name: 'blob_key', type: 'text' }) blobKey!: string;
  @Column({ name: 'file_size_bytes', type: 'integer' }) fileSizeBytes!: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
