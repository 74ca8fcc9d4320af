// Where a refusal belongs on a form: a 422's `errors[].location` names its field (fieldErrors), and
// a few refusals that are not 422s are about one field all the same (a wrong code, a wrong
// current password), so the form shows them beside that field instead of above the form.
import { ProblemError } from '../api/client.js';
import { fieldErrors } from './field.js';

/** The problem's field errors, plus the message of a problem whose code names a field. */
export function problemFields(error: unknown, byCode: Record<string, string>): Record<string, string> {
  const fields = fieldErrors(error);
  if (error instanceof ProblemError) {
    const field = byCode[error.code];
    if (field && !(field in fields)) fields[field] = error.message;
  }
  return fields;
}

/** The form-level error to show: none when the problem already sits on a field. */
export function formLevel(error: unknown, byCode: Record<string, string>): unknown {
  return error instanceof ProblemError && byCode[error.code] ? null : error;
}
