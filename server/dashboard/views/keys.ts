import { keyStatus } from '../../domain/accounts.js';
import type { ApiKeyRow, KeyRole } from '../../storage/rows.js';
import { type Html, html } from '../html.js';
import { badge, table, when } from './components.js';
import { base, csrfInput, type PageContext, postButton } from './layout.js';
import { secretBox } from './webhooks.js';

const graces: Array<[seconds: number, label: string]> = [
  [0, 'Now (old key stops at once)'],
  [3600, 'In 1 hour'],
  [86_400, 'In 24 hours'],
  [7 * 86_400, 'In 7 days'],
];

const roleLabels: Record<KeyRole, string> = {
  full: 'Full: every operation, payouts and refunds included',
  collect: 'Collect: payments and reading only',
  read_only: 'Read only',
};

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
  const rows = keys.map((key) => {
    const status = keyStatus(key, now);
    const actions =
      status !== 'revoked'
        ? html`<div class="actions"><form method="post" action="${base(ctx.mode)}/keys/${key.id}/rotate">${csrfInput(ctx.csrf)}
<label for="grace-${key.id}">Old key stops</label><select id="grace-${key.id}" name="grace_period_seconds">${graces.map(([s, label]) => html`<option value="${s}">${label}</option>`)}</select>
<button type="submit">Rotate</button></form>
${postButton(ctx, `${base(ctx.mode)}/keys/${key.id}/revoke`, 'Revoke now', { danger: true })}</div>`
        : '';
    return html`<tr><td><code class="nowrap">sk_${key.mode}_…${key.last4}</code><br><span class="muted mono">${key.id}</span></td><td>${key.role}</td><td>${badge(status)}</td><td class="hide-phone">${when(key.created_at)}</td><td>${key.revoked_at !== null ? when(key.revoked_at) : when(key.expires_at)}</td><td>${actions}</td></tr>`;
  });
  return html`${
    created
      ? secretBox(
          `New ${ctx.mode} secret key`,
          created.secret,
          'new-secret-key',
          `Copy it now: it is shown only this once and stored hashed.${
            created.previous === undefined
              ? ''
              : created.previous.revoked_at !== null
                ? ' The previous key no longer works.'
                : ' The previous key keeps working until its end shown below.'
          }`,
        )
      : ''
  }
<section class="card" aria-labelledby="api-user-title"><h2 id="api-user-title">API user</h2>
<p>Send it in the <code>X-API-User</code> header with every call, beside your secret key.</p>
<label for="api-user">API user</label><input id="api-user" readonly value="${apiUser}" size="40">
<button type="button" data-copy="api-user" hidden>Copy</button></section>
<h2>${ctx.mode === 'test' ? 'Test' : 'Live'} secret keys</h2>
<p class="muted">Secret keys are stored hashed: only their last four characters can be shown. Creating or rotating shows the new key once; a rotated key keeps its role.</p>
<form method="post" action="${base(ctx.mode)}/keys">${csrfInput(ctx.csrf)}
<label for="key-role">Role of a new key</label><select id="key-role" name="role">${roles.map((role) => html`<option value="${role}">${roleLabels[role]}</option>`)}</select>
<button type="submit">Create key</button></form>
${table(
  'API keys',
  html`<tr><th scope="col">Key</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col" class="hide-phone">Created</th><th scope="col">Ends</th><th scope="col"><span class="muted">Actions</span></th></tr>`,
  rows,
)}`;
}
