import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { webhookDispatcherService } from './webhook-dispatcher.service';

void runService(webhookDispatcherService);
