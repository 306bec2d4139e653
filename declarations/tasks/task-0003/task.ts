import { defineTask } from "../../schema/task.ts";

// Placeholder while the task is authored: replace every field.
export default defineTask({
  id: "task-0003",
  title: "placeholder",
  kind: "build",
  roles: { ats: { vendor: "hirewire", checkpoint: 0 } },
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "placeholder_0003",
  entry: { command: ["node", "src/main.ts"] },
  outputs: ["out.json"],
  scenarios: [{ name: "placeholder", drive: async () => {}, judge: () => {} }],
});
