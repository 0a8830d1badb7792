import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { webhookDispatcherService } from './webhook-dispatcher.definition';

void runService(webhookDispatcherService);
