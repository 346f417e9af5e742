import { encode } from 'uqr';
import { otpauthUri } from '../../domain/totp.js';
import type { Translator } from '../../i18n/translator.js';
import { type Html, html, raw } from '../html.js';
import { csrfInput, type PageContext, type PlainContext, plainPage } from './layout.js';

/** The name authenticator apps list the code under. */
const issuer = 'Payments Dashboard';

/**
 * What a user scans or types to add the dashboard to their authenticator app: the secret as a
 * QR code (drawn as one SVG path: no image request, nothing for the CSP to allow) and in groups
 * of four for typing.
 */
function enrolment(t: Translator, email: string, secret: string): Html {
  const qr = encode(otpauthUri(issuer, email, secret), { ecc: 'M', border: 2 });
  let path = '';
  qr.data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  const svg = `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${qr.size} ${qr.size}" width="200" height="200" role="img" aria-labelledby="qr-title"><title id="qr-title">${t.t('twoStep.qrTitle')}</title><rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
  const grouped = secret.replace(/(.{4})(?=.)/g, '$1 ');
  return html`<ol>
<li>${t.t('twoStep.stepApp')}</li>
<li>${t.t('twoStep.stepScan')}<br>${raw(svg)}<br>${t.t('twoStep.orType')} <code id="two-step-secret">${grouped}</code></li>
<li>${t.t('twoStep.stepCode')}</li>
</ol>`;
}

/** The six-digit code's field; `recovery`: a recovery code is accepted in it too. */
function codeField(t: Translator, recovery: boolean, id = 'code'): Html {
  return html`<div class="field"><label for="${id}">${t.t(recovery ? 'twoStep.codeOrRecovery' : 'twoStep.code')}</label><input id="${id}" name="code" type="text" inputmode="${recovery ? 'text' : 'numeric'}" autocomplete="one-time-code" maxlength="${recovery ? 12 : 7}" required aria-describedby="${id}-hint">
<p class="muted" id="${id}-hint">${t.t(recovery ? 'twoStep.codeOrRecoveryHint' : 'twoStep.codeHint')}</p></div>`;
}

const errorLine = (error?: string) =>
  error ? html`<p class="flash flash-error" role="alert" id="two-step-error">${error}</p>` : '';

/** Sign-in's second step: the code of the user's app, or a recovery code. */
export function secondStepPage(pc: PlainContext, csrf: string, error?: string): string {
  const { t } = pc;
  return plainPage(
    pc,
    t.t('twoStep.signInTitle'),
    html`${errorLine(error)}<p>${t.t('twoStep.signInIntro')}</p>
<form method="post" action="/dashboard/sign-in/two-step" class="card">${csrfInput(csrf)}
${codeField(t, true)}
<button type="submit">${t.t('twoStep.verify')}</button></form>
<p><a href="/dashboard/sign-in">${t.t('twoStep.startAgain')}</a></p>`,
  );
}

/** An owner whose account requires two-step sign-in, and who has not turned it on: they do it now. */
export function enrolAtSignInPage(
  pc: PlainContext,
  csrf: string,
  state: { email: string; secret: string; error?: string },
): string {
  const { t } = pc;
  return plainPage(
    pc,
    t.t('twoStep.requiredTitle'),
    html`${errorLine(state.error)}<p>${t.t('twoStep.requiredIntro')}</p>
${enrolment(t, state.email, state.secret)}
<form method="post" action="/dashboard/sign-in/enrol" class="card">${csrfInput(csrf)}
${codeField(t, false)}
<button type="submit">${t.t('twoStep.turnOn')}</button></form>`,
  );
}

/** The recovery codes, shown once: after turning two-step sign-in on, or asking for new ones. */
function recoveryCodes(t: Translator, codes: string[]): Html {
  return html`<div class="secret" role="status"><h2>${t.t('twoStep.codesTitle')}</h2><p>${t.t('twoStep.codesNote')}</p>
<ul class="codes" id="recovery-codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ul></div>`;
}

/** After the sign-in's enrolment: the recovery codes, and the way on to the page asked for. */
export function recoveryCodesPage(pc: PlainContext, codes: string[], next: string): string {
  const { t } = pc;
  return plainPage(
    pc,
    t.t('twoStep.onTitle'),
    html`${recoveryCodes(t, codes)}<p><a href="${next}" id="continue">${t.t('twoStep.continue')}</a></p>`,
  );
}

/** What the signed-in user's two-step page knows. */
export interface TwoStepState {
  /** The challenge its forms answer (server/domain/two-step.ts). */
  challenge: string;
  /** While off: the secret to add to the app. */
  secret?: string;
  enabled: boolean;
  codesLeft: number;
  /** The account requires it of owners and this user is one: it cannot be turned off. */
  required: boolean;
  /** Just made: shown once. */
  newCodes?: string[];
  error?: string;
}

/** The signed-in user's own two-step sign-in: turn it on, get new recovery codes, turn it off. */
export function twoStepView(ctx: PageContext, state: TwoStepState): Html {
  const { t } = ctx;
  const action = (what: string) => `/dashboard/${ctx.mode}/two-step/${what}`;
  const challenge = html`<input type="hidden" name="challenge" value="${state.challenge}">`;
  if (!state.enabled) {
    return html`${errorLine(state.error)}<p>${t.t('twoStep.offIntro')}</p>
${enrolment(t, ctx.user.email, state.secret ?? '')}
<form method="post" action="${action('enable')}" class="card">${csrfInput(ctx.csrf)}${challenge}
${codeField(t, false)}
<button type="submit">${t.t('twoStep.turnOn')}</button></form>`;
  }
  const turnOff = state.required
    ? html`<p class="muted" id="two-step-required">${t.t('twoStep.requiredNote')}</p>`
    : html`<form method="post" action="${action('disable')}" class="card">${csrfInput(ctx.csrf)}${challenge}
${codeField(t, true, 'disable-code')}
<button type="submit" class="danger">${t.t('twoStep.turnOff')}</button></form>`;
  return html`${errorLine(state.error)}${state.newCodes ? recoveryCodes(t, state.newCodes) : ''}
<p role="status" id="two-step-status">${t.t('twoStep.onStatus', { n: state.codesLeft })}</p>
<h2>${t.t('twoStep.newCodesTitle')}</h2>
<form method="post" action="${action('recovery-codes')}" class="card">${csrfInput(ctx.csrf)}${challenge}
<p>${t.t('twoStep.newCodesIntro')}</p>
${codeField(t, true, 'codes-code')}
<button type="submit" class="secondary">${t.t('twoStep.newCodes')}</button></form>
<h2>${t.t('twoStep.turnOffTitle')}</h2>
${turnOff}`;
}
