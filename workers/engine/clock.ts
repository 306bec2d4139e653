/**
 * Where the engine and the world object read the time and wait. Production
 * and every farm run on the host's clock; the workerd tests bind
 * `WIREBENCH_TEST_CLOCK`, and each world object then runs on a `TestClock`
 * they move instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  sleep(ms: number): Promise<void>;
}

/** The host's clock. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A clock tests move: the host's clock plus an offset. `advance` adds to the
 * offset; `sleep` adds to it and returns at once, so a delay a fault imposes
 * costs no wall time and shows in `offsetMs`.
 */
export class TestClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  /** How far this clock has been moved ahead of the host's, in ms. */
  get offsetMs(): number {
    return this.offset;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`a clock only moves forward, not by ${ms} ms`);
    this.offset += ms;
  }

  async sleep(ms: number): Promise<void> {
    this.advance(ms);
  }
}

/**
 * The clock of a world object under `env`: a `TestClock` only when the test
 * configuration binds `WIREBENCH_TEST_CLOCK` and the farm is not public. No
 * request can set a binding, so the vendor surface never reaches it.
 */
export function clockFor(env: { WIREBENCH_TEST_CLOCK?: string; WIREBENCH_EXPOSURE?: string }): Clock {
  return env.WIREBENCH_TEST_CLOCK === "manual" && env.WIREBENCH_EXPOSURE !== "public" ? new TestClock() : SYSTEM_CLOCK;
}
