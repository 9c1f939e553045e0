import { holdRequestsUntil, requestsHeld } from "./request-gate";

test("requests are held until the promise settles, then nothing is held", async () => {
  let open!: () => void;
  holdRequestsUntil(new Promise<void>((r) => (open = r)));
  const held = requestsHeld();
  expect(held).toBeDefined();
  let passed = false;
  void held!.then(() => (passed = true));
  await new Promise((r) => setTimeout(r, 10));
  expect(passed).toBe(false);
  open();
  await held;
  expect(passed).toBe(true);
  expect(requestsHeld()).toBeUndefined();
});

test("a hold that fails opens the gate as well (the worker takes requests rather than none)", async () => {
  holdRequestsUntil(Promise.reject(new Error("siblings unreachable")));
  await expect(requestsHeld()).resolves.toBeUndefined();
  expect(requestsHeld()).toBeUndefined();
});

test("a newer hold replaces an older one that settles later", async () => {
  let openFirst!: () => void;
  holdRequestsUntil(new Promise<void>((r) => (openFirst = r)));
  let openSecond!: () => void;
  holdRequestsUntil(new Promise<void>((r) => (openSecond = r)));
  const second = requestsHeld();
  openFirst();
  await new Promise((r) => setTimeout(r, 0));
  expect(requestsHeld()).toBe(second);
  openSecond();
  await second;
  expect(requestsHeld()).toBeUndefined();
});
