import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { jobWorkerService } from './job-worker.definition';

void runService(jobWorkerService);
