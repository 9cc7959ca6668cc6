// Every timeout a test file gives jest (the default, and each `it`, `test`, hook and `.each` row's own) scaled by
// the machine's load (support/patience.ts): a file's deadlines wait longer on a busy machine instead of racing
// a fixed clock. Loaded by jest.config.js (`setupFilesAfterEnv`) before each test file.
import { patient } from "./patience";

jest.setTimeout(patient(60_000));

type TimedFunction = (name: unknown, fn?: unknown, timeout?: number) => unknown;

const scaled = (timeout: unknown) => (typeof timeout === "number" ? patient(timeout) : timeout);

function patientTest<T extends TimedFunction>(original: T): T {
  const wrapped = ((name: unknown, fn?: unknown, timeout?: number) =>
    original(name, fn, scaled(timeout) as number | undefined)) as unknown as T;
  for (const key of Object.keys(original) as (keyof T)[]) (wrapped as any)[key] = (original as any)[key];
  const each = (original as any).each;
  if (typeof each === "function")
    (wrapped as any).each =
      (...table: unknown[]) =>
      (name: unknown, fn?: unknown, timeout?: number) =>
        each(...table)(name, fn, scaled(timeout));
  const only = (original as any).only;
  if (typeof only === "function") (wrapped as any).only = patientTest(only);
  return wrapped;
}

function patientHook<T extends (fn: unknown, timeout?: number) => unknown>(original: T): T {
  return ((fn: unknown, timeout?: number) =>
    original(fn, scaled(timeout) as number | undefined)) as unknown as T;
}

const globals = globalThis as any;
globals.it = patientTest(globals.it);
globals.test = patientTest(globals.test);
globals.beforeAll = patientHook(globals.beforeAll);
globals.afterAll = patientHook(globals.afterAll);
globals.beforeEach = patientHook(globals.beforeEach);
globals.afterEach = patientHook(globals.afterEach);
