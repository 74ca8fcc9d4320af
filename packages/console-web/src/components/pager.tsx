// Cursor paging over the console API's lists, which answer `next_cursor`: "Next page" follows it,
// "Previous page" goes back through the cursors already followed, kept as a stack. A change of
// the list's filters starts again at the first page.
import { useState } from 'react';

export interface CursorStack {
  /** The cursor of the page shown; undefined on the first page. */
  cursor: string | undefined;
  /** 1 for the first page. */
  page: number;
  next: (cursor: string) => void;
  previous: () => void;
}

/** The cursors followed so far, forgotten when `filters` (the list's other parameters) change. */
export function useCursorStack(filters: string): CursorStack {
  const [state, setState] = useState<{ filters: string; stack: string[] }>({ filters, stack: [] });
  const stack = state.filters === filters ? state.stack : [];
  return {
    cursor: stack.at(-1),
    page: stack.length + 1,
    next: (cursor) => setState({ filters, stack: [...stack, cursor] }),
    previous: () => setState({ filters, stack: stack.slice(0, -1) }),
  };
}

/** The page buttons under a list; nothing when the list fits one page. */
export function Pager({ pages, nextCursor, label }: { pages: CursorStack; nextCursor: string | undefined; label: string }) {
  if (pages.page === 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={pages.page === 1} onClick={pages.previous}>
        Previous page
      </button>
      <span aria-live="polite">Page {pages.page}</span>
      <button type="button" className="secondary" disabled={!nextCursor} onClick={() => nextCursor && pages.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}
