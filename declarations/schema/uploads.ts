import { Upload } from "../../mechanics/uploads/index.ts";

/** How a write receives a file: one style module of `mechanics/uploads/` per `style`. */
export { Upload };
