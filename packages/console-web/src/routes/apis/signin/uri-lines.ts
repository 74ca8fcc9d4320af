// Redirect and sign-out addresses are typed one a line; the API judges each (its 422 names the
// item, `redirect_uris.2`, and the page shows it under the field).

/** The non-empty lines of a text area, trimmed. */
export const uriLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The error for a list field, or one about any of its items, with the item's line number. */
export function listError(errors: Record<string, string>, name: string): string | undefined {
  if (errors[name]) return errors[name];
  const item = Object.keys(errors).find((k) => k.startsWith(`${name}.`) || k.startsWith(`${name}/`));
  if (!item) return undefined;
  const index = Number(item.slice(name.length + 1));
  return Number.isInteger(index) ? `Line ${index + 1}: ${errors[item]}` : errors[item];
}
