import 'reflect-metadata';
import { runService } from '@docrender/platform';
import { apiGatewayService } from './api-gateway.service';

void runService(apiGatewayService);
