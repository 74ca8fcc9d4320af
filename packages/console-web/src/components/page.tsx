// The head of every page: its title (also the document's), a line saying what the page is for and
// its main actions. The heading takes focus when the page opens, so a screen reader announces
// where a navigation landed and keyboard focus starts at the top of the new page.
import { useEffect, useRef, type ReactNode } from 'react';

export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Gatehouse`;
  }, [title]);
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  usePageTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div className="page-header">
      <div>
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {description ? <p>{description}</p> : null}
      </div>
      {actions ? <div className="actions">{actions}</div> : null}
    </div>
  );
}
