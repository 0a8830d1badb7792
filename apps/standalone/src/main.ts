import 'reflect-metadata';
import { runStandalone } from './standalone';

void runStandalone(process.env);
