/** Release of the documentation generator; part of every canary. Kept equal to package.json's version (a test checks). */
export const RELEASE = "0.1.0";
