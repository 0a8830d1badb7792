/**
 * `npm run resilience` (issue 18): runs fault scenarios against the four apps as separate processes on real
 * PostgreSQL (127.0.0.1:5432), RabbitMQ (127.0.0.1:5672, a fresh vhost per scenario) and an s3rver, cutting
 * dependencies with the TCP fault proxy of libs/testing, and prints each scenario's figures: documents lost and
 * duplicated, seconds to recover after the fault, the most requests in flight, and the read p95 during the fault.
 * A script, not a test: it asserts nothing. Sizes are larger than the e2e tests'; each scenario file names the
 * variables that change them.
 *
 *   npm run resilience                      every scenario
 *   npm run resilience -- rabbitmq-cut      only the named ones
 *
 * Add a scenario: a file in bench/resilience/scenarios/ exporting a ResilienceScenario, listed in SCENARIOS below.
 */
import type { ResilienceScenario, ScenarioFigures } from './figures';
import { callbackHostLatency } from './scenarios/callback-host-latency.scenario';
import { chromiumCrashLoop } from './scenarios/chromium-crash-loop.scenario';
import { postgresCutCallbacks } from './scenarios/postgres-cut-callbacks.scenario';
import { rabbitmqCut } from './scenarios/rabbitmq-cut.scenario';
import { renderServiceKill } from './scenarios/render-service-kill.scenario';
import { s3Cut } from './scenarios/s3-cut.scenario';
import { runBench } from '../shared/run-bench';

const SCENARIOS: ResilienceScenario[] = [rabbitmqCut, s3Cut, chromiumCrashLoop, renderServiceKill, postgresCutCallbacks, callbackHostLatency];

const cell = (value: number | null, digits = 0): string => (value === null ? '—' : value.toFixed(digits));

function row(name: string, figures: ScenarioFigures | Error): string {
  if (figures instanceof Error) return `| ${name} | failed to run: ${figures.message.split('\n')[0]} | | | | | |`;
  const notes = Object.entries(figures.notes)
    .map(([key, value]) => `${key} ${value}`)
    .join('; ');
  return `| ${name} | ${figures.lost} | ${figures.duplicated} | ${cell(figures.secondsToRecover, 1)} | ${cell(figures.maxInFlight)} | ${cell(figures.readP95Ms)} | ${notes} |`;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const chosen = wanted.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => wanted.includes(s.name));
  const rows: string[] = [];
  for (const scenario of chosen) {
    console.log(`\n== ${scenario.name}: ${scenario.description}`);
    const started = Date.now();
    let figures: ScenarioFigures | Error;
    try {
      figures = await scenario.run();
    } catch (error) {
      figures = error instanceof Error ? error : new Error(String(error));
      console.log(figures.stack ?? figures.message);
    }
    console.log(`   (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    rows.push(row(scenario.name, figures));
  }
  console.log(`\nresilience run ${new Date().toISOString()}\n`);
  console.log('| scenario | lost | duplicated | s to recover | max in flight | read p95 ms during fault | notes |');
  console.log('|---|---|---|---|---|---|---|');
  for (const line of rows) console.log(line);
}

runBench(main);
