import type { Logger } from "moleculer";
import { startWorkers } from "./workers";

const logger = { warn: jest.fn() } as unknown as Logger & { warn: jest.Mock };

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test("a step never overlaps the previous one, and stop clears the timer", async () => {
  let release!: () => void;
  const run = jest.fn(() => new Promise<void>((r) => (release = r)));
  const stop = startWorkers([{ name: "w", everyMs: 100, run }], logger);
  jest.advanceTimersByTime(350);
  expect(run).toHaveBeenCalledTimes(1); // still running: the next ticks skip
  release();
  await Promise.resolve();
  await Promise.resolve();
  jest.advanceTimersByTime(100);
  expect(run).toHaveBeenCalledTimes(2);
  void stop();
  release();
  await Promise.resolve();
  jest.advanceTimersByTime(1000);
  expect(run).toHaveBeenCalledTimes(2);
});

test("stopping waits for the step that is running, and starts no other", async () => {
  jest.useRealTimers();
  let release!: () => void;
  const run = jest.fn(() => new Promise<void>((r) => (release = r)));
  const stop = startWorkers([{ name: "w", everyMs: 10, run }], logger);
  while (run.mock.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
  let stopped = false;
  const stopping = stop().then(() => (stopped = true));
  await new Promise((r) => setTimeout(r, 50));
  expect(stopped).toBe(false); // the step is still running
  release();
  await stopping;
  expect(stopped).toBe(true);
  await new Promise((r) => setTimeout(r, 50));
  expect(run).toHaveBeenCalledTimes(1);
});

test("0 ms leaves the worker off; a failed step is logged and the next one runs", async () => {
  const off = jest.fn(async () => undefined);
  const failing = jest.fn(async () => {
    throw new Error("boom");
  });
  const stop = startWorkers([{ name: "off", everyMs: 0, run: off }, { name: "flaky step", everyMs: 50, run: failing }], logger);
  jest.advanceTimersByTime(50);
  for (let i = 0; i < 5; i++) await Promise.resolve();
  expect(logger.warn).toHaveBeenCalledWith({ err: "boom" }, "flaky step failed");
  jest.advanceTimersByTime(50);
  expect(failing).toHaveBeenCalledTimes(2);
  expect(off).not.toHaveBeenCalled();
  void stop();
});
