/** Word lists for realistic recruiting data. Order matters: seeded picks index into them. */

export const FIRST_NAMES = [
  "Amara", "Bilal", "Camille", "Dmitri", "Elena", "Farah", "Gustavo", "Hana", "Ishaan", "Jonas",
  "Keiko", "Lucia", "Mateo", "Nadia", "Oluwaseun", "Priya", "Quentin", "Rosa", "Sanjay", "Tamsin",
  "Ugo", "Valentina", "Wen", "Ximena", "Yusuf", "Zoe", "Aiden", "Beatriz", "Chidi", "Daniela",
  "Emeka", "Freya", "Gabriel", "Helga", "Ines", "Jamal", "Kofi", "Leila", "Marcus", "Noor",
  "Oscar", "Paloma", "Rafael", "Saoirse", "Tomasz", "Uma", "Viktor", "Willa", "Yara", "Zainab",
] as const;

export const LAST_NAMES = [
  "Abara", "Bergström", "Castillo", "Dubois", "Eriksen", "Fernandes", "Gallagher", "Haddad", "Ivanova", "Jensen",
  "Kowalski", "Lindqvist", "Mahlangu", "Nakamura", "O'Connell", "Petrov", "Quiroga", "Rahman", "Schmidt", "Takahashi",
  "Uddin", "Vasquez", "Whitfield", "Xu", "Yilmaz", "Zielinski", "Achebe", "Brennan", "Chowdhury", "Delacroix",
  "Esposito", "Fitzgerald", "Gonzaga", "Hoffmann", "Iqbal", "Jovanovic", "Kaur", "Lombardi", "Moreau", "Nwosu",
  "Okafor", "Park", "Rossi", "Santos", "Tanaka", "Umarov", "Varga", "Wozniak", "Yamamoto", "Zhou",
] as const;

export const EMAIL_DOMAINS = ["example.com", "mail.example.org", "inbox.example.net", "post.example.com"] as const;

export const JOB_TITLES = [
  "Registered Nurse", "Warehouse Associate", "Forklift Operator", "Software Engineer", "Data Analyst",
  "Account Executive", "Customer Success Manager", "Payroll Specialist", "Line Cook", "HVAC Technician",
  "Truck Driver (CDL-A)", "Medical Assistant", "Recruiting Coordinator", "Site Reliability Engineer", "Electrician",
  "Dental Hygienist", "Project Manager", "Quality Inspector", "Barista", "Financial Controller",
] as const;

export const DEPARTMENTS = [
  "Engineering", "Operations", "Finance", "Clinical", "Logistics", "Sales", "People", "Facilities", "Support", "Marketing",
] as const;

export const LOCATIONS = [
  "Austin, TX", "Leeds, UK", "Toronto, ON", "Lagos, NG", "Lisbon, PT", "Chicago, IL", "Melbourne, AU", "Pune, IN",
  "Rotterdam, NL", "Denver, CO", "Kraków, PL", "Remote (US)", "Remote (EU)", "Manila, PH", "São Paulo, BR",
] as const;

export const COMPANIES = [
  "Northwind Logistics", "Bluebird Health", "Cobalt Staffing", "Harbor & Vine", "Quarry Labs",
  "Meridian Care", "Ironbridge Works", "Lattice Foods", "Solace Dental", "Trailhead Freight",
] as const;

export const WORDS = [
  "candidate", "confirmed", "availability", "shift", "interview", "panel", "feedback", "strong", "references", "checked",
  "salary", "expectations", "relocation", "notice", "period", "weeks", "follow", "up", "offer", "accepted",
  "prefers", "remote", "onsite", "hybrid", "certification", "expires", "renewal", "pending", "background", "cleared",
  "called", "left", "voicemail", "scheduled", "phone", "screen", "recruiter", "manager", "requested", "portfolio",
] as const;
