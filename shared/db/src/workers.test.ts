import { oneAtATime } from "./workers";

test("oneAtATime: a call during a run waits for it, then runs its own; a failure does not block the next", async () => {
  const log: string[] = [];
  let n = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const run = oneAtATime(async () => {
    const id = ++n;
    log.push(`start ${id}`);
    if (id === 1) await gate;
    if (id === 2) throw new Error("boom");
    log.push(`end ${id}`);
    return id;
  });
  const first = run();
  const second = run();
  const third = run();
  await Promise.resolve();
  expect(log).toEqual(["start 1"]);
  release();
  expect(await first).toBe(1);
  await expect(second).rejects.toThrow("boom");
  expect(await third).toBe(3);
  expect(log).toEqual(["start 1", "end 1", "start 2", "start 3", "end 3"]);
});
