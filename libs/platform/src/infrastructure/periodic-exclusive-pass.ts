import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from '@docrender/observability';
import type { ExclusivePasses } from '@docrender/persistence';

/** What a periodic pass logs when its timer is off, when another replica holds its lock, and when it fails. */
export type PeriodicPassMessages = { disabled: string; skipped: string; failed: string };

export type PeriodicPassOptions<T> = {
  /** The pg_advisory_lock key meaning "this pass is running" (any constant, distinct from other locks). */
  lockKey: number;
  /** Time between passes; 0 turns the timer off (the pass still runs when called). */
  intervalMs: number;
  messages: PeriodicPassMessages;
  /** One pass at `now`, run while this process holds the lock. */
  work: (now: Date) => Promise<T>;
};

/**
 * A pass that one replica at a time runs every `intervalMs` (the retention sweep, the callback reaper). The timer does
 * not keep the process alive and skips a round while the previous pass still runs. A pass runs only while it holds a
 * PostgreSQL advisory lock (tried, never waited for), so the other replicas skip that round; a pass that fails is
 * logged and runs again next round.
 */
export class PeriodicExclusivePass<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly passes: ExclusivePasses,
    private readonly logger: Logger,
    private readonly options: PeriodicPassOptions<T>,
  ) {}

  /** Starts the timer, or logs that the pass is disabled when `intervalMs` is 0. */
  start(): void {
    if (this.options.intervalMs === 0) {
      this.logger.info(this.options.messages.disabled);
      return;
    }
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for the pass in flight, if any. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass at `now`: what the work returned, or null when another replica holds the lock or the pass failed (logged). */
  async run(now: Date = new Date()): Promise<T | null> {
    try {
      const pass = await this.passes.run(this.options.lockKey, () => this.options.work(now));
      if (pass === null) this.logger.debug(this.options.messages.skipped);
      return pass?.value ?? null;
    } catch (error) {
      this.logger.error(this.options.messages.failed, { err: error });
      return null;
    }
  }
}

/** What names a periodic pass in its log lines: the pass ("retention sweep") and the setting that times it. */
export type PeriodicPassIdentity = { name: string; intervalSetting: string };

/**
 * A Nest provider that runs a PeriodicExclusivePass: the timer starts once the app has started and stops (waiting for
 * the pass in flight) when the app closes. The subclass names the pass, gives its lock and interval, and does one pass
 * in `work`; its log lines say the pass is disabled (`intervalSetting`=0), skipped or failed.
 */
export abstract class PeriodicPassService<T> implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly pass: PeriodicExclusivePass<T>;

  protected constructor(passes: ExclusivePasses, logger: Logger, options: PeriodicPassIdentity & Pick<PeriodicPassOptions<T>, 'lockKey' | 'intervalMs'>) {
    const { name, intervalSetting, lockKey, intervalMs } = options;
    this.pass = new PeriodicExclusivePass(passes, logger, {
      lockKey,
      intervalMs,
      messages: {
        disabled: `${name} disabled (${intervalSetting}=0)`,
        skipped: `${name} skipped: another replica holds its lock`,
        failed: `${name} failed; it runs again next round`,
      },
      work: (now) => this.work(now),
    });
  }

  onApplicationBootstrap(): void {
    this.pass.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.pass.stop();
  }

  /** One pass at `now`: what `work` returned, or null when another replica holds the lock or the pass failed (logged; the next round retries). */
  protected runPass(now: Date): Promise<T | null> {
    return this.pass.run(now);
  }

  /** One pass at `now`, run while this process holds the lock. */
  protected abstract work(now: Date): Promise<T>;
}
