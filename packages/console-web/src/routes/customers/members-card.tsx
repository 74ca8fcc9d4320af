// The people of a customer: who signed up on the portal into it or accepted an invitation, with
// their role in the customer's team.
import type { CustomerDetail } from '../../api/records.js';
import { formatAgo, formatTime } from '../../format/time.js';

export function MembersCard({ customer }: { customer: CustomerDetail }) {
  const members = customer.members ?? [];
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">People</h2>
      {members.length ? (
        <div className="table-wrap">
          <table data-testid="members">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id}>
                  <td>{member.name}</td>
                  <td>{member.email}</td>
                  <td>{member.role}</td>
                  <td className="nowrap">{formatTime(member.created_at)}</td>
                  <td className="nowrap">{formatAgo(member.last_login_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">Nobody has joined yet. A person who signs up on the portal with {customer.email} joins this customer as its owner.</p>
      )}
    </section>
  );
}
