import { buildRouter } from "./router.ts";

export { WorldObject } from "./world/world-object.ts";

export default buildRouter();
