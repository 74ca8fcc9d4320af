// Test files that get a node process of their own instead of sharing one with other files
// (scripts/run-tests.mjs, docs/decisions.md "Tests: several files per process (issue 22)"), each
// with the reason. Paths from the repository root.
export const ALONE_FILES = new Map([
]);
