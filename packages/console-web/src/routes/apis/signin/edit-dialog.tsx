// Changing a record in a native <dialog> (as confirmations are, components/confirm.tsx): focus is
// trapped, Escape closes it and focus goes back to the button that opened it. The form inside is
// mounted only while the dialog is open, so each opening starts from the record as it is now.
import { useId, useRef, useState, type ReactNode } from 'react';

export function EditDialog({ label, title, children }: { label: ReactNode; title: string; children: (done: () => void, titleId: string) => ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const done = () => dialog.current?.close();
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} onClose={() => setOpen(false)} style={{ maxWidth: 720 }}>
        <h2 id={titleId}>{title}</h2>
        {open ? children(done, titleId) : null}
      </dialog>
    </>
  );
}
