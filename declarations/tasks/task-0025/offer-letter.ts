/**
 * SHA-256 of the offer letter the starter ships (`repo/input/offer-letter.pdf`): the judge
 * compares Onboardly's stored digest with it (the grader bundles no file reads);
 * test/node/task-0025-offer-letter.test.ts holds it equal to the file.
 */
export const OFFER_LETTER_SHA256 = "4010a2f1539254d5b9e58b4ac03be34def1791b6e439fcbc53526d69b8c33edd";
