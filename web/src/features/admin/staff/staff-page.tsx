import { buttonClass } from '../../../components/ui/button';
import { MIN_STAFF_PASSWORD_LENGTH, ROLE_LABELS, ROLES, type Role, type StaffMember, type StaffPatch } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { alertBox, confirmBox } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/use-page-title';
import { staffQuery, useCreateStaff, useDeleteStaff, useMe, useUpdateStaff } from '../api/staff-api';

const ROLE_HELP: Record<Role, string> = {
  owner: 'everything, including staff and settings',
  manager: 'books, import, prices, stock, orders, reports',
  bookseller: 'the order desk and stock counts',
};

const field = 'w-full rounded border border-gray-300 px-3 py-2 focus:outline-2 focus:outline-accent';

function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong';
  const details = error.body?.details as Record<string, string[]> | undefined;
  return details ? Object.entries(details).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ') : error.message;
}

/** The owner's list of staff: add someone, change a role, disable, delete. */
export function Component() {
  usePageTitle('Staff');
  const me = useMe();
  const list = useQuery({ ...staffQuery(), enabled: me.can('staff.manage') });
  const create = useCreateStaff();
  const update = useUpdateStaff();
  const remove = useDeleteStaff();
  const [formError, setFormError] = useState('');
  if (me.data && !me.can('staff.manage')) return <p className="rounded-lg bg-white p-6 shadow">Only an owner can manage staff.</p>;
  if (!list.data) return <FullScreenSpinner />;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    setFormError('');
    create.mutate(
      { username: String(form.get('username')), displayName: String(form.get('displayName')), role: form.get('role') as Role, password: String(form.get('password')) },
      {
        onSuccess: ({ staff }) => {
          formEl.reset();
          void alertBox('Staff member added', `${staff.displayName} can now sign in as ${staff.username}.`, 'success');
        },
        onError: (error) => setFormError(errorText(error)),
      },
    );
  };
  const patch = (member: StaffMember, change: Omit<StaffPatch, 'password'>) =>
    update.mutate({ username: member.username, patch: change }, { onError: (error) => void alertBox('Not changed', errorText(error), 'error') });
  const del = async (member: StaffMember) => {
    if (!(await confirmBox('Delete this staff member?', `${member.displayName} (${member.username}) will no longer be able to sign in.`, 'Delete'))) return;
    remove.mutate(member.username, { onError: (error) => void alertBox('Not deleted', errorText(error), 'error') });
  };

  return (
    <div className="space-y-6">
      <section aria-labelledby="staff-heading" className="rounded-lg bg-white shadow">
        <h2 id="staff-heading" className="px-4 pt-4 text-xl font-semibold sm:px-6">Staff</h2>
        <ul className="divide-y divide-gray-100">
          {list.data.map((member) => (
            <li key={member.username} className="flex flex-wrap items-center gap-3 px-4 py-3 sm:px-6" aria-label={member.displayName}>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{member.displayName} {member.disabled && <span className="ml-1 rounded bg-gray-200 px-2 text-xs">Disabled</span>}</p>
                <p className="truncate text-sm text-gray-600">{member.username}{member.totpEnabled ? ' · two-factor on' : ''}</p>
              </div>
              <label className="sr-only" htmlFor={`role-${member.username}`}>Role of {member.displayName}</label>
              <select id={`role-${member.username}`} value={member.role} onChange={(e) => patch(member, { role: e.target.value as Role })} className="rounded border border-gray-300 px-2 py-1">
                {ROLES.map((role) => <option key={role} value={role}>{ROLE_LABELS[role]}</option>)}
              </select>
              <button type="button" onClick={() => patch(member, { disabled: !member.disabled })} className={buttonClass('secondary', 'sm')}>
                {member.disabled ? 'Enable' : 'Disable'}<span className="sr-only"> {member.displayName}</span>
              </button>
              {member.totpEnabled && (
                <button type="button" onClick={() => patch(member, { resetTotp: true })} className={buttonClass('secondary', 'sm')}>
                  Reset Two-Factor<span className="sr-only"> of {member.displayName}</span>
                </button>
              )}
              {member.username !== me.data?.username && (
                <button type="button" onClick={() => void del(member)} className="px-1 text-sm font-semibold text-danger underline-offset-2 hover:underline">
                  Delete<span className="sr-only"> {member.displayName}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="add-staff" className="rounded-lg bg-white p-4 shadow sm:p-6">
        <h2 id="add-staff" className="mb-4 text-xl font-semibold">Add a Staff Member</h2>
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="staff-username" className="mb-1 block text-sm font-bold text-gray-700">Username</label>
            <input id="staff-username" name="username" required autoComplete="off" pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}" className={field} />
          </div>
          <div>
            <label htmlFor="staff-name" className="mb-1 block text-sm font-bold text-gray-700">Display name</label>
            <input id="staff-name" name="displayName" required maxLength={80} className={field} />
          </div>
          <div>
            <label htmlFor="staff-role" className="mb-1 block text-sm font-bold text-gray-700">Role</label>
            <select id="staff-role" name="role" defaultValue="bookseller" className={field}>
              {ROLES.map((role) => <option key={role} value={role}>{ROLE_LABELS[role]}: {ROLE_HELP[role]}</option>)}
            </select>
          </div>
          <div>
            <label htmlFor="staff-password" className="mb-1 block text-sm font-bold text-gray-700">Password</label>
            <input id="staff-password" name="password" type="password" required minLength={MIN_STAFF_PASSWORD_LENGTH} autoComplete="new-password" aria-describedby="staff-password-help" className={field} />
            <p id="staff-password-help" className="mt-1 text-xs text-gray-600">At least {MIN_STAFF_PASSWORD_LENGTH} characters, not a common password.</p>
          </div>
          {formError && <p role="alert" className="text-sm text-danger sm:col-span-2">{formError}</p>}
          <div className="sm:col-span-2">
            <button disabled={create.isPending} className={buttonClass('primary', 'lg')}>{create.isPending ? 'Adding...' : 'Add Staff Member'}</button>
          </div>
        </form>
      </section>
    </div>
  );
}
