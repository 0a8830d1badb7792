import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { workspaceService } from './workspace.definition';

void runService(workspaceService);
