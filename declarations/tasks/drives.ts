/**
 * @module tasks/drives
 * Every task's drives, by task id: what the Node harness runs. Only Node imports this
 * registry; the grader imports `index.ts`, whose tasks carry judges alone.
 */
import { HELD_OUT_DRIVES } from "#held-out-drives";
import type { Drive, Drives } from "../schema/task.ts";
import drives0001 from "./task-0001/drive.ts";
import drives0002 from "./task-0002/drive.ts";
import drives0003 from "./task-0003/drive.ts";
import drives0004 from "./task-0004/drive.ts";
import drives0005 from "./task-0005/drive.ts";
import drives0006 from "./task-0006/drive.ts";
import drives0007 from "./task-0007/drive.ts";
import drives0008 from "./task-0008/drive.ts";
import drives0009 from "./task-0009/drive.ts";
import drives0010 from "./task-0010/drive.ts";
import drives0011 from "./task-0011/drive.ts";
import drives0012 from "./task-0012/drive.ts";
import drives0013 from "./task-0013/drive.ts";
import drives0014 from "./task-0014/drive.ts";
import drives0015 from "./task-0015/drive.ts";
import drives0016 from "./task-0016/drive.ts";
import drives0017 from "./task-0017/drive.ts";
import drives0018 from "./task-0018/drive.ts";
import drives0019 from "./task-0019/drive.ts";
import drives0020 from "./task-0020/drive.ts";
import drives0021 from "./task-0021/drive.ts";
import drives0022 from "./task-0022/drive.ts";
import drives0023 from "./task-0023/drive.ts";
import drives0024 from "./task-0024/drive.ts";
import drives0031 from "./task-0031/drive.ts";
import drives0032 from "./task-0032/drive.ts";
import drives0033 from "./task-0033/drive.ts";
import drives0035 from "./task-0035/drive.ts";
import drives0025 from "./task-0025/drive.ts";
import drives0028 from "./task-0028/drive.ts";
import drives0029 from "./task-0029/drive.ts";
import drives0036 from "./task-0036/drive.ts";
import drives0026 from "./task-0026/drive.ts";
import drives0027 from "./task-0027/drive.ts";
import drives0034 from "./task-0034/drive.ts";
import drives0037 from "./task-0037/drive.ts";
import drives0038 from "./task-0038/drive.ts";
import drives0040 from "./task-0040/drive.ts";
import drives0039 from "./task-0039/drive.ts";
import drives0045 from "./task-0045/drive.ts";
import drives0046 from "./task-0046/drive.ts";
import drives0030 from "./task-0030/drive.ts";
import drives0047 from "./task-0047/drive.ts";
import drives0049 from "./task-0049/drive.ts";
import drives0051 from "./task-0051/drive.ts";
import drives0044 from "./task-0044/drive.ts";
import drives0052 from "./task-0052/drive.ts";
import drives0053 from "./task-0053/drive.ts";
import drives0042 from "./task-0042/drive.ts";
import drives0050 from "./task-0050/drive.ts";
import drives0043 from "./task-0043/drive.ts";
import drives0041 from "./task-0041/drive.ts";
import drives0048 from "./task-0048/drive.ts";
import drives0054 from "./task-0054/drive.ts";

const DRIVES: Readonly<Record<string, Drives>> = Object.freeze({
  "task-0001": drives0001,
  "task-0002": drives0002,
  "task-0003": drives0003,
  "task-0004": drives0004,
  "task-0005": drives0005,
  "task-0006": drives0006,
  "task-0007": drives0007,
  "task-0008": drives0008,
  "task-0009": drives0009,
  "task-0010": drives0010,
  "task-0011": drives0011,
  "task-0012": drives0012,
  "task-0013": drives0013,
  "task-0014": drives0014,
  "task-0015": drives0015,
  "task-0016": drives0016,
  "task-0017": drives0017,
  "task-0018": drives0018,
  "task-0019": drives0019,
  "task-0020": drives0020,
  "task-0021": drives0021,
  "task-0022": drives0022,
  "task-0023": drives0023,
  "task-0024": drives0024,
  "task-0031": drives0031,
  "task-0032": drives0032,
  "task-0033": drives0033,
  "task-0035": drives0035,
  "task-0025": drives0025,
  "task-0028": drives0028,
  "task-0029": drives0029,
  "task-0036": drives0036,
  "task-0026": drives0026,
  "task-0027": drives0027,
  "task-0034": drives0034,
  "task-0037": drives0037,
  "task-0039": drives0039,
  "task-0045": drives0045,
  "task-0046": drives0046,
  "task-0030": drives0030,
  "task-0038": drives0038,
  "task-0040": drives0040,
  "task-0047": drives0047,
  "task-0049": drives0049,
  "task-0051": drives0051,
  "task-0044": drives0044,
  "task-0052": drives0052,
  "task-0053": drives0053,
  "task-0042": drives0042,
  "task-0050": drives0050,
  "task-0043": drives0043,
  "task-0041": drives0041,
  "task-0048": drives0048,
  "task-0054": drives0054,
  ...HELD_OUT_DRIVES,
});

/** The drive of a task's scenario; throws when the task or the scenario has none. */
export function driveOf(taskId: string, scenario: string): Drive {
  const drive = Object.hasOwn(DRIVES, taskId) && Object.hasOwn(DRIVES[taskId], scenario) ? DRIVES[taskId][scenario] : undefined;
  if (!drive) throw new Error(`${taskId} has no drive for scenario ${scenario}`);
  return drive;
}

/** The ids of the tasks with drives (every task of the registry). */
export const DRIVEN_TASKS: readonly string[] = Object.keys(DRIVES);
