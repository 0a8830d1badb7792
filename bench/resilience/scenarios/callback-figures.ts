import type { DispatcherStand } from '@docrender/testing';
import type { ScenarioFigures } from '../figures';

/**
 * Accounts for callbacks sent through a DispatcherStand: lost (no delivered or abandoned/dropped record, or recorded
 * delivered without reaching the receiver), duplicated (requests beyond the attempts recorded: an attempt made twice).
 */
export async function accountForCallbacks(stand: DispatcherStand, ids: string[]): Promise<Pick<ScenarioFigures, 'lost' | 'duplicated'> & { states: Record<string, number> }> {
  const records = await stand.deliveries(ids);
  const requests = new Map<string, number>();
  for (const r of stand.receiver.received) requests.set(r.deliveryId, (requests.get(r.deliveryId) ?? 0) + 1);
  const states: Record<string, number> = {};
  let lost = 0;
  let duplicated = 0;
  records.forEach((record, i) => {
    const state = record?.state ?? 'no record';
    states[state] = (states[state] ?? 0) + 1;
    const received = requests.get(ids[i]) ?? 0;
    if (record === null || record.state === 'pending' || (record.state === 'delivered' && received === 0)) lost++;
    if (record !== null) duplicated += Math.max(0, received - record.attempts);
  });
  return { lost, duplicated, states };
}

/** Waits until every delivery of `ids` is settled (not pending) or `timeoutMs` passed; returns the seconds it took. */
export async function secondsUntilSettled(stand: DispatcherStand, ids: string[], timeoutMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const records = await stand.deliveries(ids);
    if (records.every((r) => r !== null && r.state !== 'pending')) return (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}

/** A counter of the dispatcher's /metrics (summed over labels), or null when it cannot be read. */
export async function dispatcherCounter(stand: DispatcherStand, name: string): Promise<number | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${stand.dispatcher.env.WEBHOOK_DISPATCHER_PORT}/metrics`)).text();
    const values = text
      .split('\n')
      .filter((line) => line.startsWith(name))
      .map((line) => Number(line.split(' ').at(-1)));
    return values.reduce((sum, v) => sum + v, 0);
  } catch {
    return null;
  }
}
