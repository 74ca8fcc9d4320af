// What the runner prints at the end of each pass and of the run: where the time went, in figures a
// reader can compare between runs (DESIGN section 10: budgets are figures, never assertions).

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const minutes = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/** The lines that close a pass on one database. */
export function passSummary({ db, results, wallMs, concurrency, groupSize, processes, startMs, processCpuMs, slowest = 15 }) {
  const sum = (pick) => results.reduce((total, r) => total + pick(r), 0);
  const tests = sum((r) => r.tests);
  const failed = sum((r) => r.failed);
  const skipped = sum((r) => r.skipped);
  const fileMs = sum((r) => r.wallMs);
  const testMs = sum((r) => r.testMs);
  const cpuMs = sum((r) => r.cpuMs);
  const lines = [
    '',
    `── ${db}: ${results.length} files, ${tests} tests (${tests - failed - skipped} passed, ${failed} failed, ${skipped} skipped) in ${minutes(wallMs)}, ${concurrency} processes at a time`,
    `   ${processes} test processes of up to ${groupSize} files each; their start outside any file ${minutes(startMs)} in all`,
    `   files ${minutes(fileMs)} in all: in tests ${minutes(testMs)}, outside tests ${minutes(fileMs - testMs)} (loading, app and browser start in hooks, set-up between tests)`,
    `   CPU of the test processes ${minutes(processCpuMs)}, of which in files ${minutes(cpuMs)} (not counting browsers and servers they start)`,
    `   slowest files: wall, of which outside tests, CPU in the file`,
  ];
  for (const r of [...results].sort((a, b) => b.wallMs - a.wallMs).slice(0, slowest)) {
    lines.push(`   ${seconds(r.wallMs).padStart(8)} ${seconds(r.wallMs - r.testMs).padStart(8)} ${seconds(r.cpuMs).padStart(8)}  ${r.file} (${r.tests} tests)`);
  }
  const bad = results.filter((r) => !r.ok);
  if (bad.length) lines.push(`   FAILED on ${db}:`, ...bad.map((r) => `     ${r.file}`));
  return lines.join('\n');
}
