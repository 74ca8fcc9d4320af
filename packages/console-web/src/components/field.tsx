// A form field with its visible label, an optional hint and the API's complaint about it: a 422
// problem's `errors[].location` (`body.name`) lands on the field of that name (DESIGN section 11).
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { ProblemError } from '../api/client.js';

// What a schema says of a value that matched none of a union's branches ("" or an https address):
// true, but the branch's own message ("must match pattern …") says what to type.
const UNION_NOISE = new Set(['must be equal to constant', 'must match a schema in anyOf', 'must match exactly one schema in oneOf', 'must be null']);

/** A problem's errors by field name: `body.name` → `name`, `query.limit` → `limit`. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ProblemError)) return {};
  const out: Record<string, string> = {};
  for (const detail of error.problem.errors ?? []) {
    const name = detail.location?.replace(/^(body|query|path)\.?/, '').replace(/^\//, '');
    if (!name || !detail.message) continue;
    if (!(name in out) || (UNION_NOISE.has(out[name]!) && !UNION_NOISE.has(detail.message))) out[name] = detail.message;
  }
  return out;
}

interface Described {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
}

function useDescribed(props: Described) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const wrap = (control: ReactNode) => (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.hint ? (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      {control}
      {props.error ? (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
  return { id, describedBy, wrap, invalid: props.error ? true : undefined };
}

export function Field({ label, hint, error, ...input }: Described & InputHTMLAttributes<HTMLInputElement>) {
  const field = useDescribed({ label, hint, error });
  return field.wrap(<input id={field.id} aria-describedby={field.describedBy} aria-invalid={field.invalid} {...input} />);
}

export function SelectField({ label, hint, error, children, ...select }: Described & SelectHTMLAttributes<HTMLSelectElement>) {
  const field = useDescribed({ label, hint, error });
  return field.wrap(
    <select id={field.id} aria-describedby={field.describedBy} aria-invalid={field.invalid} {...select}>
      {children}
    </select>,
  );
}

export function TextAreaField({ label, hint, error, ...area }: Described & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const field = useDescribed({ label, hint, error });
  return field.wrap(<textarea id={field.id} aria-describedby={field.describedBy} aria-invalid={field.invalid} {...area} />);
}

/**
 * The part of a refusal no field shows: its detail, or, for a 422 whose errors all landed on
 * fields, a line pointing at them.
 */
export function FormError({ error, fields = [] }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  if (!(error instanceof ProblemError)) return <p className="alert error" role="alert">Something went wrong. Try again.</p>;
  const shown = Object.keys(fieldErrors(error)).filter((name) => fields.includes(name));
  const message = shown.length && error.status === 422 ? 'Check the fields marked in red.' : error.message;
  return (
    <p className="alert error" role="alert">
      {message}
    </p>
  );
}
