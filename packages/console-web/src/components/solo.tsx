// The frame of pages a person sees before they are signed in: one card under the product's name.
import type { ReactNode } from 'react';
import { Brand } from '../app/brand.js';
import { PageHeaderSolo } from './page-solo.js';

export function Solo({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="solo" id="content">
      <Brand />
      <PageHeaderSolo title={title} />
      {children}
    </main>
  );
}
