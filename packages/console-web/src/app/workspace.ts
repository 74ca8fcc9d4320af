// The workspace the console is looking at: the one in the address (/workspaces/:ws/…), else the
// workspace of the API in the address, else the last one opened in this browser, else the first.
import { useSession } from './session.js';
import type { WorkspaceOut } from '../api/records.js';

const LAST = 'gatehouse.workspace';

export function rememberWorkspace(id: string) {
  try {
    localStorage.setItem(LAST, id);
  } catch {
    // Storage may be off (private windows); the first workspace is then the default.
  }
}

function lastWorkspace(): string | null {
  try {
    return localStorage.getItem(LAST);
  } catch {
    return null;
  }
}

/** The workspace by id, or the remembered or first one; null when the person has none. */
export function useWorkspace(id?: string | null): WorkspaceOut | null {
  const me = useSession();
  const workspaces = me.workspaces ?? [];
  return workspaces.find((w) => w.id === id) ?? workspaces.find((w) => w.id === lastWorkspace()) ?? workspaces[0] ?? null;
}
