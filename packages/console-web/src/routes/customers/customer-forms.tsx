// Adding customers by hand (name and e-mail; the new customer's page opens) and inviting someone
// to become one (the mail links to the portal's sign-up).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { key } from '../../app/query-keys.js';
import { customersKey } from './customer-keys.js';

export function CreateCustomerForm({ apiId }: { apiId: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/customers', { params: { path: { api: apiId } }, body: { name: name.trim(), email: email.trim() } })),
    onSuccess: (customer) => {
      void queryClient.invalidateQueries({ queryKey: customersKey(apiId) });
      void navigate(`/apis/${apiId}/customers/${customer.id}`);
    },
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="create-customer-title">
      <h2 id="create-customer-title">Add a customer</h2>
      <p className="muted small">A customer added by hand is active at once and gets the API's welcome credit.</p>
      <FormError error={create.error} fields={['name', 'email']} />
      <Field label="Name" name="name" maxLength={100} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} error={errors.name} />
      <Field label="E-mail" name="email" type="email" maxLength={254} autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} error={errors.email} />
      <button type="submit" disabled={create.isPending}>
        Add customer
      </button>
    </form>
  );
}

export function InviteCustomerForm({ apiId }: { apiId: string }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const invite = useMutation({
    mutationFn: (address: string) => call(api.POST('/api/apis/{api}/customers/invite', { params: { path: { api: apiId } }, body: { email: address } })).then(() => address),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: key('/api/apis/{api}/customers/invites', apiId) });
    },
  });
  const errors = fieldErrors(invite.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(email.trim());
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="invite-customer-title">
      <h2 id="invite-customer-title">Invite a customer</h2>
      <p className="muted small">We mail a link to the portal; signing up with this address makes them a customer, whatever the sign-up mode.</p>
      <FormError error={invite.error} fields={['email']} />
      {invite.isSuccess ? (
        <p className="alert ok" role="status">
          Invitation sent to {invite.data}.
        </p>
      ) : null}
      <Field label="E-mail to invite" name="email" type="email" maxLength={254} autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} error={errors.email} />
      <button type="submit" disabled={invite.isPending}>
        Send invitation
      </button>
    </form>
  );
}
