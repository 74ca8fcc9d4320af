// A node:test reporter for scripts/run-tests.mjs: one JSON line per finished test (its duration,
// depth and whether it is a suite), so the runner can tell time in tests from time around them
// (loading, app and browser start in before hooks, set-up outside any test) and count tests the
// way node:test's own summary does (every test that is not a suite, at any depth). The runner
// loads every file inside a suite named after it (group-entry.mjs): a line at depth 0 ends a file.
export default async function* timingReporter(source) {
  const fileEnded = globalThis[Symbol.for('gatehouse.test.fileEnded')];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, details, skip, todo } = event.data;
    yield JSON.stringify({
      name,
      nesting,
      ok: event.type === 'test:pass',
      ms: details?.duration_ms ?? 0,
      suite: details?.type === 'suite',
      skipped: skip !== undefined && skip !== false,
      todo: todo !== undefined && todo !== false,
    }) + '\n';
    // The group entry waits for this when a file's `after` hook threw (node runs no later one).
    if (nesting === 0) (fileEnded ?? globalThis[Symbol.for('gatehouse.test.fileEnded')])?.(name);
  }
  // The CPU this test process used (not its children: browsers, servers it spawned), a figure that
  // stays comparable between runs on a machine busy with other work, where wall times do not.
  const { user, system } = process.cpuUsage();
  yield JSON.stringify({ cpuMs: (user + system) / 1000 }) + '\n';
}
