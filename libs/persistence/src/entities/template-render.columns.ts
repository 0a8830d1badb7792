import { Column } from 'typeorm';
import type { Environment } from '@docrender/contracts';

/**
 * The columns a render job and a stored document share, alike in both tables: whose render it is, of which template
 * version, in which environment and language. Not an entity of its own: RenderJobEntity and StoredDocumentEntity
 * extend it (TypeORM concrete table inheritance) and declare their own id and other columns.
 */
export abstract class TemplateRenderColumns {
  @Column({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  @Column({ name: 'template_id', type: 'uuid' }) templateId!: string;
  @Column({ name: 'version_number', type: 'integer' }) versionNumber!: number;
  @Column({ type: 'text' }) environment!: Environment;
  @Column({ type: 'text', nullable: true }) language!: string | null;
}
