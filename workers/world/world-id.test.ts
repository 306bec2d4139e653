import { describe, expect, it } from "vitest";
import { formatWorldId, parseWorldId, worldIdOf } from "./world-id.ts";

describe("world ids", () => {
  it("name release, task and seed, and read back", () => {
    const id = formatWorldId({ release: "r1", task: "task-0007", seed: 42, random: "0123456789abcdef" });
    expect(id).toBe("r1-t0007-s42-0123456789abcdef");
    expect(parseWorldId(id)).toEqual({ release: "r1", task: "task-0007", seed: 42, random: "0123456789abcdef" });
    expect(parseWorldId("r3-v-s0-ffffffffffffffff")).toEqual({ release: "r3", task: null, seed: 0, random: "ffffffffffffffff" });
    expect(parseWorldId("r1x3f9a2c-t0007-s1-0123456789abcdef")?.release).toBe("r1x3f9a2c");
  });
  it("refuse what is not one", () => {
    for (const bad of [
      "w_0123456789abcdef",
      "r1-t7-s1-0123456789abcdef",
      "r1-t0007-s1-0123456789ABCDEF",
      "r1-t0007-s1-0123",
      "r1-t0007-s-1-0123456789abcdef",
      "r1x3f9a2-t0007-s1-0123456789abcdef",
      "r1xzzzzzz-t0007-s1-0123456789abcdef",
      "",
    ])
      expect(parseWorldId(bad), bad).toBeNull();
  });
  it("are found in vendor and control-plane URLs", () => {
    const id = "r1-t0001-s7-00112233445566ff";
    expect(worldIdOf(id)).toBe(id);
    expect(worldIdOf(`https://farm.example/w/${id}/ats/v1/candidates?page=2`)).toBe(id);
    expect(worldIdOf(`http://127.0.0.1:8787/v1/worlds/${id}`)).toBe(id);
    expect(worldIdOf(`/w/${id}/ats`)).toBe(id);
    expect(worldIdOf("https://farm.example/w/not-a-world/ats")).toBeNull();
  });
});
