import 'reflect-metadata';
import { runRenderService } from './render-service.bootstrap';

void runRenderService();
