import type { LinkProblem } from '../../domain/dashboard-users.js';
import { passwordLength } from '../../domain/passwords.js';
import type { Translator } from '../../i18n/translator.js';
import type { DashboardUserRow } from '../../storage/rows.js';
import { type Html, html } from '../html.js';
import { th } from '../i18n.js';
import { label, table, when } from './components.js';
import { csrfInput, type PageContext, type PlainContext, plainPage } from './layout.js';

/** Why a link did not set a password, in the page's language. */
function linkProblem(t: Translator, problem: LinkProblem): string {
  switch (problem) {
    case 'password_short':
      return t.t('error.passwordShort', { min: passwordLength.min });
    case 'password_long':
      return t.t('error.passwordLong');
    case 'password_common':
      return t.t('error.passwordCommon');
    case 'busy':
      return t.t('signIn.busy');
    case 'link_used':
      return t.t('error.linkUsed');
  }
}

export function signInPage(
  pc: PlainContext,
  csrf: string,
  {
    error,
    notice,
    email = '',
    next,
  }: { error?: string; notice?: string; email?: string; next?: string } = {},
): string {
  const { t } = pc;
  return plainPage(
    pc,
    t.t('signIn.title'),
    html`${error ? html`<p class="flash flash-error" role="alert" id="sign-in-error">${error}</p>` : ''}${notice ? html`<p class="flash flash-ok" role="status">${notice}</p>` : ''}
<form method="post" action="/dashboard/sign-in" class="card">${csrfInput(csrf)}${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
<div class="field"><label for="email">${t.t('signIn.email')}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"></div>
<div class="field"><label for="password">${t.t('signIn.password')}</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">${t.t('signIn.submit')}</button></form>
<p><a href="/dashboard/forgot-password" id="forgot-password">${t.t('signIn.forgot')}</a></p>
<p class="muted">${th(t, 'signIn.noAccount', { command: html`<code>npm run admin -- create-user</code>` })}</p>`,
  );
}

/**
 * The page a one-time link opens to choose a password: an invitation's first one (`welcome`)
 * or a reset's new one (`reset`), under the same rules.
 */
export function newPasswordPage(
  pc: PlainContext,
  csrf: string,
  link: { kind: 'welcome' | 'reset'; token: string; user: DashboardUserRow },
  error?: LinkProblem,
): string {
  const { t } = pc;
  const { kind, token, user } = link;
  const email = html`<strong>${user.email}</strong>`;
  const [title, intro, submit] =
    kind === 'welcome'
      ? [
          t.t('setPassword.title'),
          th(t, 'setPassword.as', { email, role: label(t, 'role', user.role) }),
          t.t('setPassword.submit'),
        ]
      : [t.t('reset.title'), th(t, 'reset.for', { email }), t.t('reset.submit')];
  return plainPage(
    pc,
    title,
    html`${error ? html`<p class="flash flash-error" role="alert">${linkProblem(t, error)}</p>` : ''}
<form method="post" action="/dashboard/${kind}/${token}" class="card">${csrfInput(csrf)}
<p>${intro}</p>
<input type="hidden" name="username" autocomplete="username" value="${user.email}">
<div class="field"><label for="new-password">${t.t('setPassword.label')}</label><input id="new-password" name="password" type="password" autocomplete="new-password" minlength="${passwordLength.min}" maxlength="${passwordLength.max}" required></div>
<button type="submit">${submit}</button></form>`,
  );
}

export function linkInvalidPage(pc: PlainContext, purpose: 'invitation' | 'reset' = 'invitation'): string {
  const { t } = pc;
  return plainPage(
    pc,
    t.t('linkInvalid.title'),
    purpose === 'reset'
      ? html`<p>${t.t('reset.invalid')}</p><p><a href="/dashboard/forgot-password">${t.t('signIn.forgot')}</a></p>`
      : html`<p>${t.t('linkInvalid.body')}</p><p><a href="/dashboard/sign-in">${t.t('signIn.submit')}</a></p>`,
  );
}

/**
 * "Forgot password?": with mail, a form that sends a link, and the same answer whether or not
 * the email is a user's; without, where to get a link (an administrator prints it).
 */
export function forgotPasswordPage(
  pc: PlainContext,
  csrf: string,
  state: { mail: boolean; sent?: boolean; error?: string },
): string {
  const { t } = pc;
  const back = html`<p><a href="/dashboard/sign-in">${t.t('forgot.back')}</a></p>`;
  if (!state.mail) {
    return plainPage(
      pc,
      t.t('forgot.title'),
      html`<p>${th(t, 'forgot.askAdmin', { command: html`<code>npm run admin -- reset-link &lt;email&gt;</code>` })}</p>${back}`,
    );
  }
  if (state.sent) {
    return plainPage(
      pc,
      t.t('forgot.title'),
      html`<p class="flash flash-ok" role="status">${t.t('forgot.sent')}</p>${back}`,
    );
  }
  return plainPage(
    pc,
    t.t('forgot.title'),
    html`${state.error ? html`<p class="flash flash-error" role="alert">${state.error}</p>` : ''}
<p>${t.t('forgot.intro')}</p>
<form method="post" action="/dashboard/forgot-password" class="card">${csrfInput(csrf)}
<div class="field"><label for="email">${t.t('signIn.email')}</label><input id="email" name="email" type="email" autocomplete="username" required></div>
<button type="submit">${t.t('forgot.submit')}</button></form>${back}`,
  );
}

export function usersView(
  ctx: PageContext,
  users: DashboardUserRow[],
  publicUrl: string,
  invited?: { email: string; token: string },
): Html {
  const { t } = ctx;
  const rows = users.map(
    (u) =>
      html`<tr><td>${u.email}</td><td>${label(t, 'role', u.role)}</td><td>${label(t, 'status', u.password_hash ? 'active' : 'invited')}</td><td>${t.t(u.totp_enabled_at === null ? 'users.twoStepOff' : 'users.twoStepOn')}</td><td>${when(t, u.created_at)}</td></tr>`,
  );
  const link = invited ? `${publicUrl}/dashboard/welcome/${invited.token}` : '';
  return html`${
    invited
      ? html`<div class="secret" role="status"><p><strong>${t.t('users.invitation', { email: invited.email })}</strong> ${t.t('users.invitationNote')}</p>
<label for="invite-link">${t.t('users.invitationLink')}</label><input id="invite-link" readonly value="${link}"><p><button type="button" data-copy="invite-link" hidden>${t.t('common.copy')}</button></p></div>`
      : ''
  }
${table(t, t.t('users.title'), html`<tr><th scope="col">${t.t('col.email')}</th><th scope="col">${t.t('col.role')}</th><th scope="col">${t.t('users.state')}</th><th scope="col">${t.t('users.twoStep')}</th><th scope="col">${t.t('users.added')}</th></tr>`, rows)}
<h2>${t.t('users.invite')}</h2>
<form method="post" action="/dashboard/${ctx.mode}/users/invite" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="invite-email">${t.t('col.email')}</label><input id="invite-email" name="email" type="email" required></div>
<fieldset><legend>${t.t('col.role')}</legend>${(['owner', 'developer', 'viewer'] as const).map(
    (role) =>
      html`<label class="check"><input type="radio" name="role" value="${role}"${role === 'developer' ? html` checked` : ''}> ${t.t(`roleDescription.${role}`)}</label>`,
  )}</fieldset>
<button type="submit">${t.t('users.submit')}</button></form>`;
}
