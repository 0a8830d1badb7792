import type { CommandDefinition } from '../cli/command';
import { documentsDownloadCommand, documentsListCommand } from './documents.command';
import { jobsWaitCommand } from './jobs.command';
import { renderCommand } from './render.command';
import { statsCommand } from './stats.command';
import { templatesListCommand } from './templates.command';
import { validateCommand } from './validate.command';

export const COMMANDS: readonly CommandDefinition[] = [renderCommand, validateCommand, templatesListCommand, documentsListCommand, documentsDownloadCommand, jobsWaitCommand, statsCommand];
