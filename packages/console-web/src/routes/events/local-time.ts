/** `YYYY-MM-DDTHH:MM` of a moment in the browser's time zone, what a datetime-local field shows. */
export function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
