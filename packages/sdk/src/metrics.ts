/** Counters of one meter, readable as an object or as Prometheus text. */
export interface MeterMetrics {
  admissions: Record<string, number>;
  snapshotAgeMs: number | null;
  queueDepth: number;
  deadLetters: number;
  reportFailures: number;
  verifyLookups: number;
  /** Lookups refused because `maxQueuedLookups` were already waiting (answered 503). */
  verifyRefused: number;
}

export function prometheusText(m: MeterMetrics): string {
  const lines = [
    '# HELP gatehouse_sdk_admissions_total Admission decisions by outcome.',
    '# TYPE gatehouse_sdk_admissions_total counter',
    ...Object.entries(m.admissions).map(([outcome, n]) => `gatehouse_sdk_admissions_total{outcome="${outcome}"} ${n}`),
    '# HELP gatehouse_sdk_snapshot_age_seconds Age of the snapshot admissions use.',
    '# TYPE gatehouse_sdk_snapshot_age_seconds gauge',
    `gatehouse_sdk_snapshot_age_seconds ${m.snapshotAgeMs === null ? 'NaN' : (m.snapshotAgeMs / 1000).toFixed(3)}`,
    '# HELP gatehouse_sdk_usage_queue_requests Requests recorded and not yet acknowledged.',
    '# TYPE gatehouse_sdk_usage_queue_requests gauge',
    `gatehouse_sdk_usage_queue_requests ${m.queueDepth}`,
    '# HELP gatehouse_sdk_dead_letters_total Usage items set aside as dead letters.',
    '# TYPE gatehouse_sdk_dead_letters_total counter',
    `gatehouse_sdk_dead_letters_total ${m.deadLetters}`,
    '# HELP gatehouse_sdk_report_failures_total Failed usage deliveries.',
    '# TYPE gatehouse_sdk_report_failures_total counter',
    `gatehouse_sdk_report_failures_total ${m.reportFailures}`,
    '# HELP gatehouse_sdk_verify_lookups_total Lookups of keys missing from the snapshot.',
    '# TYPE gatehouse_sdk_verify_lookups_total counter',
    `gatehouse_sdk_verify_lookups_total ${m.verifyLookups}`,
    '# HELP gatehouse_sdk_verify_refused_total Lookups refused because too many were waiting.',
    '# TYPE gatehouse_sdk_verify_refused_total counter',
    `gatehouse_sdk_verify_refused_total ${m.verifyRefused}`,
  ];
  return lines.join('\n') + '\n';
}
