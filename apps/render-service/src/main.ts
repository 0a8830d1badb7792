import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { renderService } from './render-service.definition';

void runService(renderService);
