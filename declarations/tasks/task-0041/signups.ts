/**
 * The agency's sign-up file (`repo/input/harbour-signups.csv`), as typed by hand: each row names a
 * Sourcewell profile by its id (case, separators and leading zeros as the agency copied them) or,
 * with the id left blank, by an email or mobile that must match the profile's. Some people are
 * listed twice; two rows name profiles Sourcewell does not have (one deleted, one never issued);
 * one row matches no profile at all; one row's id names a profile while its email is another
 * person's, pasted from an earlier row (the id decides). The last person on the file was sourced
 * the day before the import, so their profile is among Sourcewell's newest, past the first 100
 * (a second page at any page size), and their earlier sign-up was typed in last, below the later
 * one: the file is not in `signed_up` order. The agency types an hour before ten without its
 * leading zero (`2025-01-07 8:20`), so two sign-ups of one day sort the wrong way as text: Chidi
 * Rahman's earlier row (8:20) and Quentin Achebe's earlier row (9:05, typed in last) both read as
 * later than the same day's 13:05 and 15:40. One row without an id gives an email that matches no
 * profile and a mobile that does: the email names the profile, so the row names nobody and is not
 * imported. The judge reads this list, never the connector's
 * copy of the file (`signups.test.ts` keeps the two the same).
 */
export interface Signup {
  sourcewell_id: string;
  full_name: string;
  email: string;
  mobile: string;
  role: string;
  zone: string;
  signed_up: string;
}

export const SIGNUPS: readonly Signup[] = [
  {
    sourcewell_id: "tl_00012",
    full_name: "Farah Achebe",
    email: "farah.achebe92@example.com",
    mobile: "+1 729 555 0212",
    role: "Forklift operator",
    zone: "Newark, NJ",
    signed_up: "2025-01-06 09:12",
  },
  { sourcewell_id: " tl_00002 ", full_name: "Uma Abara", email: "uma.abara74@post.example.com", mobile: "", role: "Warehouse associate", zone: "Newark, NJ", signed_up: "2025-01-06 09:40" },
  {
    sourcewell_id: "tl_6",
    full_name: "Viktor Gallagher",
    email: "viktor.gallagher10@mail.example.org",
    mobile: "+1 763 555 7467",
    role: "Line cook",
    zone: "Hoboken, NJ",
    signed_up: "2025-01-06 10:05",
  },
  { sourcewell_id: "", full_name: "Aiden Nwosu", email: "Aiden.Nwosu65@mail.example.org", mobile: "", role: "Security officer", zone: "Newark, NJ", signed_up: "2025-01-06 11:30" },
  { sourcewell_id: "tl_00033", full_name: "Emeka Gonzales", email: "emeka.g@post.example.com", mobile: "", role: "Dishwasher", zone: "Elizabeth, NJ", signed_up: "2025-01-06 12:02" },
  { sourcewell_id: "tl_00999", full_name: "Priya Natarajan", email: "priya.natarajan@example.com", mobile: "+1 201 555 0199", role: "Cashier", zone: "Jersey City, NJ", signed_up: "2025-01-06 12:15" },
  {
    sourcewell_id: "TL_00017",
    full_name: "Rafael Lombardi",
    email: "rafael.lombardi84@post.example.com",
    mobile: "+1 201 555 0147",
    role: "Barista",
    zone: "Hoboken, NJ",
    signed_up: "2025-01-06 13:48",
  },
  {
    sourcewell_id: "tl_00020",
    full_name: "Chidi Rahman",
    email: "chidi.rahman35@mail.example.org",
    mobile: "+1 722 555 9778",
    role: "Event server",
    zone: "Newark, NJ",
    signed_up: "2025-01-07 8:20",
  },
  { sourcewell_id: "TL-12", full_name: "Farrah Achebe", email: "F.Achebe92@example.com", mobile: "", role: "forklift operator", zone: "Jersey City, NJ", signed_up: "2025-01-07 08:55" },
  { sourcewell_id: "", full_name: "Aiden Nwossu", email: "", mobile: "+1 (376) 555-1668", role: "Security Officer", zone: "Elizabeth, NJ", signed_up: "2025-01-07 09:10" },
  {
    sourcewell_id: "tl_00024",
    full_name: "Hana Fernandes",
    email: "hana.fernandes14@mail.example.org",
    mobile: "+1 351 555 8797",
    role: "Housekeeper",
    zone: "Newark, NJ",
    signed_up: "2025-01-07 10:30",
  },
  { sourcewell_id: "", full_name: "Uma Abara", email: " UMA.ABARA74@post.example.com", mobile: "", role: "Picker packer", zone: "Elizabeth, NJ", signed_up: "2025-01-07 11:02" },
  { sourcewell_id: "", full_name: "Tariq Hussain", email: "tariq.hussain@inbox.example.net", mobile: "", role: "General labor", zone: "Newark, NJ", signed_up: "2025-01-07 11:45" },
  { sourcewell_id: "tl_00020", full_name: "Chidi Rahman", email: "chidi.rahman35@mail.example.org", mobile: "+1 722 555 9778", role: "BARTENDER", zone: "Newark, NJ", signed_up: "2025-01-07 13:05" },
  {
    sourcewell_id: "tl_00028",
    full_name: "Quentin Achebe",
    email: "quentin.achebe55@inbox.example.net",
    mobile: "384-555-6479",
    role: "Picker packer",
    zone: "Jersey City, NJ",
    signed_up: "2025-01-07 15:40",
  },
  { sourcewell_id: "00030", full_name: "Jamal Varga", email: "hana.fernandes14@mail.example.org", mobile: "+1 969 555 6722", role: "Event server", zone: "Hoboken, NJ", signed_up: "2025-01-08 08:20" },
  {
    sourcewell_id: "tl_00106",
    full_name: "Valentina Chowdhury",
    email: "valentina.chowdhury62@example.com",
    mobile: "+1 286 555 1316",
    role: "Bartender",
    zone: "Hoboken, NJ",
    signed_up: "2025-01-08 09:30",
  },
  { sourcewell_id: "tl_106", full_name: "Valentina Chowdhury", email: "valentina.chowdhury62@example.com", mobile: "", role: "Event server", zone: "Newark, NJ", signed_up: "2025-01-07 16:10" },
  { sourcewell_id: "tl-28", full_name: "Quentin Achebe", email: "quentin.achebe55@inbox.example.net", mobile: "", role: "Forklift operator", zone: "Newark, NJ", signed_up: "2025-01-07 9:05" },
  { sourcewell_id: "", full_name: "Elena Tanaka", email: "elena.tanaka@example.com", mobile: "+1 773 555 3624", role: "Cashier", zone: "Jersey City, NJ", signed_up: "2025-01-08 10:15" },
];

/** The CSV header of the file. */
export const COLUMNS = ["sourcewell_id", "full_name", "email", "mobile", "role", "zone", "signed_up"] as const;
