import type { Task } from "../schema/task.ts";
import type { GoldManifest } from "../../evidence/verdict.ts";
import { HELD_OUT } from "#held-out";
import task0001 from "./task-0001/task.ts";
import gold0001 from "./task-0001/gold-manifest.json" with { type: "json" };
import task0002 from "./task-0002/task.ts";
import gold0002 from "./task-0002/gold-manifest.json" with { type: "json" };
import task0003 from "./task-0003/task.ts";
import gold0003 from "./task-0003/gold-manifest.json" with { type: "json" };
import task0004 from "./task-0004/task.ts";
import gold0004 from "./task-0004/gold-manifest.json" with { type: "json" };
import task0005 from "./task-0005/task.ts";
import gold0005 from "./task-0005/gold-manifest.json" with { type: "json" };
import task0006 from "./task-0006/task.ts";
import gold0006 from "./task-0006/gold-manifest.json" with { type: "json" };
import task0007 from "./task-0007/task.ts";
import gold0007 from "./task-0007/gold-manifest.json" with { type: "json" };
import task0008 from "./task-0008/task.ts";
import gold0008 from "./task-0008/gold-manifest.json" with { type: "json" };
import task0009 from "./task-0009/task.ts";
import gold0009 from "./task-0009/gold-manifest.json" with { type: "json" };
import task0010 from "./task-0010/task.ts";
import gold0010 from "./task-0010/gold-manifest.json" with { type: "json" };
import task0011 from "./task-0011/task.ts";
import gold0011 from "./task-0011/gold-manifest.json" with { type: "json" };
import task0012 from "./task-0012/task.ts";
import gold0012 from "./task-0012/gold-manifest.json" with { type: "json" };
import task0013 from "./task-0013/task.ts";
import gold0013 from "./task-0013/gold-manifest.json" with { type: "json" };
import task0014 from "./task-0014/task.ts";
import gold0014 from "./task-0014/gold-manifest.json" with { type: "json" };
import task0015 from "./task-0015/task.ts";
import gold0015 from "./task-0015/gold-manifest.json" with { type: "json" };
import task0016 from "./task-0016/task.ts";
import gold0016 from "./task-0016/gold-manifest.json" with { type: "json" };
import task0017 from "./task-0017/task.ts";
import gold0017 from "./task-0017/gold-manifest.json" with { type: "json" };
import task0018 from "./task-0018/task.ts";
import gold0018 from "./task-0018/gold-manifest.json" with { type: "json" };
import task0019 from "./task-0019/task.ts";
import gold0019 from "./task-0019/gold-manifest.json" with { type: "json" };
import task0020 from "./task-0020/task.ts";
import gold0020 from "./task-0020/gold-manifest.json" with { type: "json" };
import task0021 from "./task-0021/task.ts";
import gold0021 from "./task-0021/gold-manifest.json" with { type: "json" };
import task0022 from "./task-0022/task.ts";
import gold0022 from "./task-0022/gold-manifest.json" with { type: "json" };
import task0023 from "./task-0023/task.ts";
import gold0023 from "./task-0023/gold-manifest.json" with { type: "json" };
import task0024 from "./task-0024/task.ts";
import gold0024 from "./task-0024/gold-manifest.json" with { type: "json" };
import task0031 from "./task-0031/task.ts";
import gold0031 from "./task-0031/gold-manifest.json" with { type: "json" };
import task0032 from "./task-0032/task.ts";
import gold0032 from "./task-0032/gold-manifest.json" with { type: "json" };
import task0033 from "./task-0033/task.ts";
import gold0033 from "./task-0033/gold-manifest.json" with { type: "json" };
import task0035 from "./task-0035/task.ts";
import gold0035 from "./task-0035/gold-manifest.json" with { type: "json" };
import task0025 from "./task-0025/task.ts";
import gold0025 from "./task-0025/gold-manifest.json" with { type: "json" };
import task0028 from "./task-0028/task.ts";
import gold0028 from "./task-0028/gold-manifest.json" with { type: "json" };
import task0029 from "./task-0029/task.ts";
import gold0029 from "./task-0029/gold-manifest.json" with { type: "json" };
import task0036 from "./task-0036/task.ts";
import gold0036 from "./task-0036/gold-manifest.json" with { type: "json" };
import task0026 from "./task-0026/task.ts";
import gold0026 from "./task-0026/gold-manifest.json" with { type: "json" };
import task0027 from "./task-0027/task.ts";
import gold0027 from "./task-0027/gold-manifest.json" with { type: "json" };
import task0034 from "./task-0034/task.ts";
import gold0034 from "./task-0034/gold-manifest.json" with { type: "json" };
import task0037 from "./task-0037/task.ts";
import gold0037 from "./task-0037/gold-manifest.json" with { type: "json" };
import task0038 from "./task-0038/task.ts";
import gold0038 from "./task-0038/gold-manifest.json" with { type: "json" };
import task0040 from "./task-0040/task.ts";
import gold0040 from "./task-0040/gold-manifest.json" with { type: "json" };
import task0039 from "./task-0039/task.ts";
import gold0039 from "./task-0039/gold-manifest.json" with { type: "json" };
import task0045 from "./task-0045/task.ts";
import gold0045 from "./task-0045/gold-manifest.json" with { type: "json" };
import task0046 from "./task-0046/task.ts";
import gold0046 from "./task-0046/gold-manifest.json" with { type: "json" };
import task0030 from "./task-0030/task.ts";
import gold0030 from "./task-0030/gold-manifest.json" with { type: "json" };
import task0047 from "./task-0047/task.ts";
import gold0047 from "./task-0047/gold-manifest.json" with { type: "json" };
import task0049 from "./task-0049/task.ts";
import gold0049 from "./task-0049/gold-manifest.json" with { type: "json" };
import task0051 from "./task-0051/task.ts";
import gold0051 from "./task-0051/gold-manifest.json" with { type: "json" };
import task0044 from "./task-0044/task.ts";
import gold0044 from "./task-0044/gold-manifest.json" with { type: "json" };
import task0052 from "./task-0052/task.ts";
import gold0052 from "./task-0052/gold-manifest.json" with { type: "json" };
import task0053 from "./task-0053/task.ts";
import gold0053 from "./task-0053/gold-manifest.json" with { type: "json" };
import task0042 from "./task-0042/task.ts";
import gold0042 from "./task-0042/gold-manifest.json" with { type: "json" };
import task0050 from "./task-0050/task.ts";
import gold0050 from "./task-0050/gold-manifest.json" with { type: "json" };
import task0043 from "./task-0043/task.ts";
import gold0043 from "./task-0043/gold-manifest.json" with { type: "json" };
import task0041 from "./task-0041/task.ts";
import gold0041 from "./task-0041/gold-manifest.json" with { type: "json" };
import task0048 from "./task-0048/task.ts";
import gold0048 from "./task-0048/gold-manifest.json" with { type: "json" };
import task0054 from "./task-0054/task.ts";
import gold0054 from "./task-0054/gold-manifest.json" with { type: "json" };

/** A task and the checks gold earns on it (null until `wirebench validate --write-gold` has run). */
export interface TaskEntry {
  task: Task;
  gold: GoldManifest | null;
  /** A task from a held-out folder outside the repository (WIREBENCH_TASKS): graded like any other, never listed to participants or published in detail. */
  heldOut?: true;
}

const entries: TaskEntry[] = [
  { task: task0001, gold: gold0001 as GoldManifest | null },
  { task: task0002, gold: gold0002 as GoldManifest | null },
  { task: task0003, gold: gold0003 as GoldManifest | null },
  { task: task0004, gold: gold0004 as GoldManifest | null },
  { task: task0005, gold: gold0005 as GoldManifest | null },
  { task: task0006, gold: gold0006 as GoldManifest | null },
  { task: task0007, gold: gold0007 as GoldManifest | null },
  { task: task0008, gold: gold0008 as GoldManifest | null },
  { task: task0009, gold: gold0009 as GoldManifest | null },
  { task: task0010, gold: gold0010 as GoldManifest | null },
  { task: task0011, gold: gold0011 as GoldManifest | null },
  { task: task0012, gold: gold0012 as GoldManifest | null },
  { task: task0013, gold: gold0013 as GoldManifest | null },
  { task: task0014, gold: gold0014 as GoldManifest | null },
  { task: task0015, gold: gold0015 as GoldManifest | null },
  { task: task0016, gold: gold0016 as GoldManifest | null },
  { task: task0017, gold: gold0017 as GoldManifest | null },
  { task: task0018, gold: gold0018 as GoldManifest | null },
  { task: task0019, gold: gold0019 as GoldManifest | null },
  { task: task0020, gold: gold0020 as GoldManifest | null },
  { task: task0021, gold: gold0021 as GoldManifest | null },
  { task: task0022, gold: gold0022 as GoldManifest | null },
  { task: task0023, gold: gold0023 as GoldManifest | null },
  { task: task0024, gold: gold0024 as GoldManifest | null },
  { task: task0031, gold: gold0031 as GoldManifest | null },
  { task: task0032, gold: gold0032 as GoldManifest | null },
  { task: task0033, gold: gold0033 as GoldManifest | null },
  { task: task0035, gold: gold0035 as GoldManifest | null },
  { task: task0025, gold: gold0025 as GoldManifest | null },
  { task: task0028, gold: gold0028 as GoldManifest | null },
  { task: task0029, gold: gold0029 as GoldManifest | null },
  { task: task0036, gold: gold0036 as GoldManifest | null },
  { task: task0026, gold: gold0026 as GoldManifest | null },
  { task: task0027, gold: gold0027 as GoldManifest | null },
  { task: task0034, gold: gold0034 as GoldManifest | null },
  { task: task0037, gold: gold0037 as GoldManifest | null },
  { task: task0038, gold: gold0038 as GoldManifest | null },
  { task: task0040, gold: gold0040 as GoldManifest | null },
  { task: task0039, gold: gold0039 as GoldManifest | null },
  { task: task0045, gold: gold0045 as GoldManifest | null },
  { task: task0046, gold: gold0046 as GoldManifest | null },
  { task: task0030, gold: gold0030 as GoldManifest | null },
  { task: task0047, gold: gold0047 as GoldManifest | null },
  { task: task0049, gold: gold0049 as GoldManifest | null },
  { task: task0051, gold: gold0051 as GoldManifest | null },
  { task: task0044, gold: gold0044 as GoldManifest | null },
  { task: task0052, gold: gold0052 as GoldManifest | null },
  { task: task0053, gold: gold0053 as GoldManifest | null },
  { task: task0042, gold: gold0042 as GoldManifest | null },
  { task: task0050, gold: gold0050 as GoldManifest | null },
  { task: task0043, gold: gold0043 as GoldManifest | null },
  { task: task0041, gold: gold0041 as GoldManifest | null },
  { task: task0048, gold: gold0048 as GoldManifest | null },
  { task: task0054, gold: gold0054 as GoldManifest | null },
];

/** Every task, by id: the public ones (adding a task means adding its folder and listing it here), then any held-out ones mounted. */
export const TASKS: Readonly<Record<string, TaskEntry>> = Object.freeze(Object.fromEntries([...entries, ...HELD_OUT.map((e) => ({ ...e, heldOut: true as const }))].map((e) => [e.task.id, e])));

export function findTask(id: string): TaskEntry | undefined {
  return Object.hasOwn(TASKS, id) ? TASKS[id] : undefined;
}
