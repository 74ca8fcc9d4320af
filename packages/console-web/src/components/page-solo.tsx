import { useEffect, useRef } from 'react';
import { usePageTitle } from './page.js';

/** The heading of a page outside the frame; it takes focus when the page (or its step) changes. */
export function PageHeaderSolo({ title }: { title: string }) {
  usePageTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {title}
    </h1>
  );
}
