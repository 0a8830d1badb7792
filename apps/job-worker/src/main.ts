import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { jobWorkerService } from './job-worker.service';

void runService(jobWorkerService);
