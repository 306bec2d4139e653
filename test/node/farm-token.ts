/** The control-plane token of every farm the Node tests start. */
export const TEST_ADMIN = "node-test-admin";
