import type { Vendor } from "../schema/vendor.ts";
import hirewire from "./hirewire.ts";
import staffline from "./staffline.ts";
import talentforge from "./talentforge.ts";
import globalhire from "./globalhire.ts";
import talentloop from "./talentloop.ts";
import placemint from "./placemint.ts";
import recruitos from "./recruitos.ts";
import crewcall from "./crewcall.ts";
import vettly from "./vettly.ts";
import onboardly from "./onboardly.ts";
import sourcewell from "./sourcewell.ts";
import bullpen from "./bullpen.ts";
import interviewly from "./interviewly.ts";
import rosterly from "./rosterly.ts";
import paygrade from "./paygrade.ts";

/** Every vendor declaration, by id. Adding a vendor means adding its file here. */
export const VENDORS: Readonly<Record<string, Vendor>> = Object.freeze({
  [staffline.id]: staffline,
  [talentforge.id]: talentforge,
  [hirewire.id]: hirewire,
  [globalhire.id]: globalhire,
  [talentloop.id]: talentloop,
  [placemint.id]: placemint,
  [recruitos.id]: recruitos,
  [crewcall.id]: crewcall,
  [vettly.id]: vettly,
  [onboardly.id]: onboardly,
  [sourcewell.id]: sourcewell,
  [bullpen.id]: bullpen,
  [interviewly.id]: interviewly,
  [rosterly.id]: rosterly,
  [paygrade.id]: paygrade,
});

export function findVendor(id: string): Vendor | undefined {
  return Object.hasOwn(VENDORS, id) ? VENDORS[id] : undefined;
}
