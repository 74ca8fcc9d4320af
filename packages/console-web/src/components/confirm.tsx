// Destructive actions are confirmed (DESIGN section 11) in a native <dialog>: it traps focus, closes
// on Escape, makes the page behind it inert and gives focus back to the button that opened it.
import { useId, useRef, useState, type ReactNode } from 'react';

interface ConfirmProps {
  /** The button that opens the dialog: it names the action ("Delete API"). */
  label: ReactNode;
  title: string;
  children?: ReactNode;
  /** The confirming button's words; the action's own name by default. */
  confirmLabel?: string;
  /** Text the person must type to confirm (an API's name), for what cannot be undone. */
  typeToConfirm?: string;
  danger?: boolean;
  disabled?: boolean;
  className?: string;
  /** When the dialog opens: a page clears an earlier refusal shown in it. */
  onOpen?: () => void;
  /** Throwing (a mutation's refusal) keeps the dialog open. */
  onConfirm: () => Promise<unknown> | unknown;
}

export function ConfirmButton({ label, title, children, confirmLabel, typeToConfirm, danger = true, disabled, className, onOpen, onConfirm }: ConfirmProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const inputId = useId();
  const close = () => {
    dialog.current?.close();
    setTyped('');
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      close();
    } catch {
      // A refusal keeps the dialog open; the page shows the API's words in it (children).
    } finally {
      setBusy(false);
    }
  };
  const ready = !typeToConfirm || typed === typeToConfirm;
  return (
    <>
      <button
        type="button"
        className={className ?? (danger ? 'danger' : 'secondary')}
        disabled={disabled}
        onClick={() => {
          onOpen?.();
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} onClose={() => setTyped('')}>
        <h2 id={titleId}>{title}</h2>
        {children}
        {typeToConfirm ? (
          <div className="field">
            <label htmlFor={inputId}>
              Type <strong>{typeToConfirm}</strong> to confirm
            </label>
            <input id={inputId} type="text" autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
          </div>
        ) : null}
        <div className="actions">
          <button type="button" className="secondary" onClick={close}>
            Cancel
          </button>
          <button type="button" className={danger ? 'danger' : undefined} disabled={!ready || busy} onClick={() => void confirm()}>
            {confirmLabel ?? label}
          </button>
        </div>
      </dialog>
    </>
  );
}
