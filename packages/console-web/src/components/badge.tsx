// A status as a coloured word: active, pending, suspended, past_due, connected…
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge ${status}`}>{label ?? status.replace(/_/g, ' ')}</span>;
}
