import os from "node:os";
import { patience, patient } from "../support/patience";

describe("the suite's patience", () => {
  const saved = process.env.MEMICL_TEST_PATIENCE;
  afterEach(() => {
    if (saved === undefined) delete process.env.MEMICL_TEST_PATIENCE;
    else process.env.MEMICL_TEST_PATIENCE = saved;
    jest.restoreAllMocks();
  });

  it("takes MEMICL_TEST_PATIENCE when it is set", () => {
    process.env.MEMICL_TEST_PATIENCE = "3";
    expect(patient(1000)).toBe(3000);
  });

  it("follows the load per core otherwise, from 1 to 8", () => {
    delete process.env.MEMICL_TEST_PATIENCE;
    const cores = os.cpus().length;
    jest.spyOn(os, "loadavg").mockReturnValue([0.1, 0.1, 0.1]);
    expect(patience()).toBe(1);
    jest.spyOn(os, "loadavg").mockReturnValue([cores * 2.5, cores, cores]);
    expect(patience()).toBe(2.5);
    jest.spyOn(os, "loadavg").mockReturnValue([cores, cores * 4, cores]);
    expect(patience()).toBe(4);
    jest.spyOn(os, "loadavg").mockReturnValue([cores * 50, cores * 50, cores]);
    expect(patience()).toBe(8);
  });
});
