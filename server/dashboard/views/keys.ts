import { keyStatus } from '../../domain/accounts.js';
import type { Translator } from '../../i18n/translator.js';
import type { ApiKeyRow, KeyRole } from '../../storage/rows.js';
import { type Html, html } from '../html.js';
import { th } from '../i18n.js';
import { badge, table, when } from './components.js';
import { base, csrfInput, type PageContext, postButton } from './layout.js';
import { secretBox } from './webhooks.js';

const graces = (t: Translator): Array<[seconds: number, label: string]> => [
  [0, t.t('keys.graceNow')],
  [3600, t.t('keys.graceHours', { n: 1 })],
  [86_400, t.t('keys.graceHours', { n: 24 })],
  [7 * 86_400, t.t('keys.graceDays', { n: 7 })],
];

/**
 * The keys the user's role reaches (`roles`, server/domain/dashboard-keys.ts), each with its
 * role; the form creates a key of one of those roles. A new secret (created or rotated) is
 * shown once, with the key it replaced when there was one.
 */
export function keysView(
  ctx: PageContext,
  apiUser: string,
  keys: ApiKeyRow[],
  now: number,
  roles: readonly KeyRole[],
  created?: { secret: string; previous?: ApiKeyRow },
): Html {
  const { t } = ctx;
  const rows = keys.map((key) => {
    const status = keyStatus(key, now);
    const actions =
      status !== 'revoked'
        ? html`<div class="actions"><form method="post" action="${base(ctx.mode)}/keys/${key.id}/rotate">${csrfInput(ctx.csrf)}
<label for="grace-${key.id}">${t.t('keys.oldKeyStops')}</label><select id="grace-${key.id}" name="grace_period_seconds">${graces(t).map(([s, label]) => html`<option value="${s}">${label}</option>`)}</select>
<button type="submit">${t.t('keys.rotate')}</button></form>
${postButton(ctx, `${base(ctx.mode)}/keys/${key.id}/revoke`, t.t('keys.revoke'), { danger: true })}</div>`
        : '';
    return html`<tr><td><code class="nowrap">sk_${key.mode}_…${key.last4}</code><br><span class="muted mono">${key.id}</span></td><td>${t.t(`keys.role.${key.role}`)}</td><td>${badge(t, status)}</td><td class="hide-phone">${when(t, key.created_at)}</td><td>${key.revoked_at !== null ? when(t, key.revoked_at) : when(t, key.expires_at)}</td><td>${actions}</td></tr>`;
  });
  return html`${
    created
      ? secretBox(
          t,
          t.t('keys.newSecret', { mode: ctx.mode }),
          created.secret,
          'new-secret-key',
          t.t('keys.newSecretNote', {
            previous:
              created.previous === undefined
                ? 'none'
                : created.previous.revoked_at !== null
                  ? 'revoked'
                  : 'kept',
          }),
        )
      : ''
  }
<section class="card" aria-labelledby="api-user-title"><h2 id="api-user-title">${t.t('keys.apiUser')}</h2>
<p>${th(t, 'keys.apiUserHelp', { header: html`<code>X-API-User</code>` })}</p>
<label for="api-user">${t.t('keys.apiUser')}</label><input id="api-user" readonly value="${apiUser}" size="40">
<button type="button" data-copy="api-user" hidden>${t.t('common.copy')}</button></section>
<h2>${t.t('keys.heading', { mode: ctx.mode })}</h2>
<p class="muted">${t.t('keys.hashedNote')}</p>
<form method="post" action="${base(ctx.mode)}/keys">${csrfInput(ctx.csrf)}
<label for="key-role">${t.t('keys.newRole')}</label><select id="key-role" name="role">${roles.map((role) => html`<option value="${role}">${t.t(`keys.roleLong.${role}`)}</option>`)}</select>
<button type="submit">${t.t('keys.create')}</button></form>
${table(
  t,
  t.t('keys.title'),
  html`<tr><th scope="col">${t.t('keys.key')}</th><th scope="col">${t.t('keys.roleColumn')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="hide-phone">${t.t('col.created')}</th><th scope="col">${t.t('keys.ends')}</th><th scope="col"><span class="muted">${t.t('col.actions')}</span></th></tr>`,
  rows,
)}`;
}
