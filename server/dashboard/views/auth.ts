import type { DashboardUserRow } from '../../storage/rows.js';
import { roleDescriptions } from '../auth.js';
import { type Html, html } from '../html.js';
import { table, when } from './components.js';
import { csrfInput, type PageContext, plainPage } from './layout.js';

export function signInPage(nonce: string, csrf: string, error?: string, email = ''): string {
  return plainPage(
    nonce,
    'Sign in to the dashboard',
    html`${error ? html`<p class="flash flash-error" role="alert" id="sign-in-error">${error}</p>` : ''}
<form method="post" action="/dashboard/sign-in" class="card">${csrfInput(csrf)}
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button></form>
<p class="muted">No account yet? An owner invites you, or an operator runs <code>npm run admin -- create-user</code>.</p>`,
  );
}

export function setPasswordPage(
  nonce: string,
  csrf: string,
  token: string,
  user: DashboardUserRow,
  error?: string,
): string {
  return plainPage(
    nonce,
    'Choose your password',
    html`${error ? html`<p class="flash flash-error" role="alert">${error}</p>` : ''}
<form method="post" action="/dashboard/welcome/${token}" class="card">${csrfInput(csrf)}
<p>Signing in as <strong>${user.email}</strong> (${user.role}).</p>
<input type="hidden" name="username" autocomplete="username" value="${user.email}">
<div class="field"><label for="new-password">New password (at least 10 characters)</label><input id="new-password" name="password" type="password" autocomplete="new-password" minlength="10" required></div>
<button type="submit">Set password and sign in</button></form>`,
  );
}

export function linkInvalidPage(nonce: string): string {
  return plainPage(
    nonce,
    'This link no longer works',
    html`<p>It has expired or was already used. Ask an owner of the account for a new invitation.</p><p><a href="/dashboard/sign-in">Sign in</a></p>`,
  );
}

export function usersView(
  ctx: PageContext,
  users: DashboardUserRow[],
  publicUrl: string,
  invited?: { email: string; token: string },
): Html {
  const rows = users.map(
    (u) =>
      html`<tr><td>${u.email}</td><td>${u.role}</td><td>${u.password_hash ? 'active' : 'invited'}</td><td>${when(u.created_at)}</td></tr>`,
  );
  const link = invited ? `${publicUrl}/dashboard/welcome/${invited.token}` : '';
  return html`${
    invited
      ? html`<div class="secret" role="status"><p><strong>Invitation for ${invited.email}.</strong> No email is sent: give them this link (it works once, for 7 days).</p>
<label for="invite-link">Invitation link</label><input id="invite-link" readonly value="${link}"><p><button type="button" data-copy="invite-link" hidden>Copy</button></p></div>`
      : ''
  }
${table('Users', html`<tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">State</th><th scope="col">Added</th></tr>`, rows)}
<h2>Invite a user</h2>
<form method="post" action="/dashboard/${ctx.mode}/users/invite" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required></div>
<fieldset><legend>Role</legend>${(['owner', 'developer', 'viewer'] as const).map(
    (role) =>
      html`<label class="check"><input type="radio" name="role" value="${role}"${role === 'developer' ? html` checked` : ''}> ${roleDescriptions[role]}</label>`,
  )}</fieldset>
<button type="submit">Create invitation link</button></form>`;
}
