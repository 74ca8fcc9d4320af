// A server's permissions as rows (name, description, sensitive), added and removed by buttons; the
// API judges names (its 422 names the row, `permissions.2.name`, shown under that row's field).
import { Field } from '../../../components/field.js';

export interface PermissionDraft {
  name: string;
  description: string;
  sensitive: boolean;
}

export const emptyPermission = (): PermissionDraft => ({ name: '', description: '', sensitive: false });

export function PermissionsEditor({ rows, onChange, errors }: { rows: PermissionDraft[]; onChange: (rows: PermissionDraft[]) => void; errors: Record<string, string> }) {
  const set = (index: number, changes: Partial<PermissionDraft>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...changes } : row)));
  return (
    <fieldset>
      <legend>Permissions</legend>
      <p className="hint">Scopes apps may ask for at this server (read:forecasts). A sensitive one goes on end-user keys only where the sign-in settings allow it.</p>
      {rows.map((row, index) => (
        <div key={index} className="grid-2" role="group" aria-label={`Permission ${index + 1}`}>
          <Field label={`Permission ${index + 1} name`} value={row.name} maxLength={64} spellCheck={false} onChange={(e) => set(index, { name: e.target.value })} error={errors[`permissions.${index}.name`] ?? errors[`permissions.${index}`]} />
          <Field label={`Permission ${index + 1} description`} value={row.description} maxLength={200} onChange={(e) => set(index, { description: e.target.value })} error={errors[`permissions.${index}.description`]} />
          <label className="check">
            <input type="checkbox" checked={row.sensitive} onChange={(e) => set(index, { sensitive: e.target.checked })} />
            <span>Permission {index + 1} is sensitive</span>
          </label>
          <div>
            <button type="button" className="secondary" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
              Remove permission {index + 1}
            </button>
          </div>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...rows, emptyPermission()])}>
        Add a permission
      </button>
    </fieldset>
  );
}
