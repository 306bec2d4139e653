import type { Vendor } from "../schema/vendor.ts";
import hirewire from "./hirewire.ts";
import staffline from "./staffline.ts";
import talentforge from "./talentforge.ts";

/** Every vendor declaration, by id. Adding a vendor means adding its file here. */
export const VENDORS: Readonly<Record<string, Vendor>> = Object.freeze({
  [staffline.id]: staffline,
  [talentforge.id]: talentforge,
  [hirewire.id]: hirewire,
});

export function findVendor(id: string): Vendor | undefined {
  return Object.hasOwn(VENDORS, id) ? VENDORS[id] : undefined;
}
