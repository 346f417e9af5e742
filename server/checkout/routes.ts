import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, Router } from 'express';
import type { Deps } from '../domain/context.js';
import type { ApiError } from '../domain/errors.js';
import { canonicalMsisdn } from '../domain/msisdn.js';
import { refuseOtherNetwork } from '../domain/operator-requests.js';
import { findCheckout, payCheckout } from '../domain/payments.js';
import { localeOf, rememberLocale } from '../i18n/http.js';
import { isLocale, Translator } from '../i18n/translator.js';
import { type CheckoutContext, type CheckoutView, describeStatus, isUnpaid, renderCheckout } from './page.js';
import {
  invalidNumber,
  linkClosed,
  linkExpired,
  linkNotFound,
  noOperator,
  refusalJson,
  refusalView,
  type Typed,
} from './refusals.js';

const tokenPattern = /^cs_[0-9A-Za-z]{32}$/;

/**
 * The hosted checkout page of `POST /payments/initiate`: public (the link's random token is
 * the only credential, and it grants nothing but paying this one payment), server-rendered,
 * with its one inline script and style allowed by a per-response nonce and nothing loaded
 * from anywhere else.
 */
export function checkoutRoutes(deps: Deps): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '4kb' }), express.json({ limit: '4kb' }));

  /**
   * The customer's language: the one they pick on the page (`?lang=`, then remembered), else
   * the one they chose before, else their phone's. Times are Cameroon's.
   */
  const translatorFor = (req: Request, res: Response): Translator => {
    if (res.locals.t) return res.locals.t as Translator;
    const picked = req.query.lang;
    if (isLocale(picked))
      rememberLocale(res, picked, req.secure || deps.config.publicUrl.startsWith('https://'));
    res.locals.t = new Translator(isLocale(picked) ? picked : localeOf(req));
    return res.locals.t as Translator;
  };

  const sendPage = (
    req: Request,
    res: Response,
    status: number,
    view: CheckoutView,
    context: Omit<CheckoutContext, 'nonce' | 'now' | 't'>,
  ) => {
    const nonce = randomBytes(16).toString('base64');
    res
      .status(status)
      .set({
        'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      })
      .type('html')
      .send(renderCheckout(view, { ...context, nonce, now: deps.clock.now(), t: translatorFor(req, res) }));
  };

  const load = async (req: Request) => {
    const token = req.params.token as string;
    if (!tokenPattern.test(token)) return undefined;
    const found = await findCheckout(deps, token);
    return found ? { token, ...found } : undefined;
  };

  const wantsJson = (req: Request) => (req.get('accept') ?? '').includes('application/json');

  /**
   * The one place a refusal is answered: to the page's script (its submit, its status poll) as
   * the JSON it reads, to a browser as a page, the form given back as typed when a field was at
   * fault.
   */
  const refuse = (
    req: Request,
    res: Response,
    to: 'page' | 'script' | 'poll',
    refusal: ApiError,
    found?: Parameters<typeof sendPage>[4],
    typed?: Typed,
  ) => {
    const t = translatorFor(req, res);
    if (to !== 'page') return res.status(refusal.status).json(refusalJson(t, refusal, to === 'poll', typed));
    sendPage(req, res, refusal.status, refusalView(t, refusal, typed), found ?? {});
  };

  router.get('/:token', async (req, res) => {
    const found = await load(req);
    if (!found) return refuse(req, res, 'page', linkNotFound());
    const { payment } = found;
    if (describeStatus(translatorFor(req, res), payment, deps.clock.now()).status === 'expired') {
      return refuse(req, res, 'page', linkExpired(), found);
    }
    const unpaid = isUnpaid(payment);
    if (unpaid && !found.serviceActive) return refuse(req, res, 'page', linkClosed(), found);
    sendPage(req, res, 200, unpaid ? { kind: 'form' } : { kind: 'status' }, found);
  });

  router.get('/:token/status', async (req, res) => {
    const found = await load(req);
    if (!found) return refuse(req, res, 'poll', linkNotFound());
    res
      .set('Cache-Control', 'no-store')
      .json(describeStatus(translatorFor(req, res), found.payment, deps.clock.now()));
  });

  router.post('/:token/pay', async (req, res) => {
    const found = await load(req);
    const to = wantsJson(req) ? 'script' : 'page';
    if (!found) return refuse(req, res, to, linkNotFound());
    const body = (req.body ?? {}) as { msisdn?: unknown; payment_method?: unknown };
    const method =
      body.payment_method === 'orange_money'
        ? 'orange_money'
        : body.payment_method === 'mtn_momo'
          ? 'mtn_momo'
          : null;
    const msisdn = typeof body.msisdn === 'string' ? canonicalMsisdn(body.msisdn) : null;
    if (!msisdn || !method) {
      const typed = { msisdn: String(body.msisdn ?? ''), method: method ?? undefined };
      return refuse(req, res, to, msisdn ? noOperator() : invalidNumber(), found, typed);
    }
    try {
      refuseOtherNetwork(msisdn, method, 'payment_method');
    } catch (mismatch) {
      return refuse(req, res, to, mismatch as ApiError, found, { msisdn: String(body.msisdn), method });
    }
    const result = await payCheckout(deps, found.token, { msisdn, paymentMethod: method });
    const payment = result.ok ? result.payment : (result.payment ?? found.payment);
    if (!result.ok && result.reason === 'expired') return refuse(req, res, to, linkExpired(), found);
    if (!result.ok && result.reason === 'service_inactive') return refuse(req, res, to, linkClosed(), found);
    // Paid (now or by an earlier submit): the status of the one charge there is.
    if (to === 'script')
      return res
        .status(result.ok ? 202 : 409)
        .json(describeStatus(translatorFor(req, res), payment, deps.clock.now()));
    res.redirect(303, `/checkout/${found.token}`);
  });

  return router;
}
