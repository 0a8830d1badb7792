import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { apiGatewayService } from './api-gateway.definition';

void runService(apiGatewayService);
