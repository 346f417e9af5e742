import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, Router } from 'express';
import type { Deps } from '../domain/context.js';
import { findCheckout, payCheckout } from '../domain/payments.js';
import { normaliseMsisdn } from './format.js';
import { type CheckoutView, closedText, describeStatus, isUnpaid, renderCheckout } from './page.js';

const tokenPattern = /^cs_[0-9A-Za-z]{32}$/;
const invalidMsisdn =
  'Enter the Mobile Money number with its country code, digits only, for example 237670000000.';

/**
 * The hosted checkout page of `POST /payments/initiate`: public (the link's random token is
 * the only credential, and it grants nothing but paying this one payment), server-rendered,
 * with its one inline script and style allowed by a per-response nonce and nothing loaded
 * from anywhere else.
 */
export function checkoutRoutes(deps: Deps): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '4kb' }), express.json({ limit: '4kb' }));

  const sendPage = (
    res: Response,
    status: number,
    view: CheckoutView,
    context: Omit<Parameters<typeof renderCheckout>[1], 'nonce' | 'now'>,
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
      .send(renderCheckout(view, { ...context, nonce, now: deps.clock.now() }));
  };

  const load = async (req: Request) => {
    const token = req.params.token as string;
    if (!tokenPattern.test(token)) return undefined;
    const found = await findCheckout(deps, token);
    return found ? { token, ...found } : undefined;
  };

  const wantsJson = (req: Request) => (req.get('accept') ?? '').includes('application/json');

  router.get('/:token', async (req, res) => {
    const found = await load(req);
    if (!found) return sendPage(res, 404, { kind: 'not_found' }, {});
    const { payment } = found;
    if (describeStatus(payment, deps.clock.now()).status === 'expired') {
      return sendPage(res, 410, { kind: 'expired' }, found);
    }
    const unpaid = isUnpaid(payment);
    if (unpaid && !found.serviceActive) return sendPage(res, 410, { kind: 'closed' }, found);
    sendPage(res, 200, unpaid ? { kind: 'form' } : { kind: 'status' }, found);
  });

  router.get('/:token/status', async (req, res) => {
    const found = await load(req);
    if (!found)
      return res.status(404).json({ status: 'not_found', text: 'This link does not lead to a payment.' });
    res.set('Cache-Control', 'no-store').json(describeStatus(found.payment, deps.clock.now()));
  });

  router.post('/:token/pay', async (req, res) => {
    const found = await load(req);
    const json = wantsJson(req);
    if (!found) {
      if (json)
        return res.status(404).json({ error: 'not_found', text: 'This link does not lead to a payment.' });
      return sendPage(res, 404, { kind: 'not_found' }, {});
    }
    const body = (req.body ?? {}) as { msisdn?: unknown; payment_method?: unknown };
    const method =
      body.payment_method === 'orange_money'
        ? 'orange_money'
        : body.payment_method === 'mtn_momo'
          ? 'mtn_momo'
          : null;
    const msisdn = typeof body.msisdn === 'string' ? normaliseMsisdn(body.msisdn) : null;
    if (!msisdn || !method) {
      const text = msisdn ? 'Choose your operator: MTN Mobile Money or Orange Money.' : invalidMsisdn;
      if (json) return res.status(400).json({ error: 'invalid_msisdn', text });
      return sendPage(
        res,
        400,
        { kind: 'form', error: text, msisdn: String(body.msisdn ?? ''), method: method ?? undefined },
        found,
      );
    }
    const result = await payCheckout(deps, found.token, { msisdn, paymentMethod: method });
    const payment = result.ok ? result.payment : (result.payment ?? found.payment);
    if (!result.ok && result.reason === 'expired') {
      if (json)
        return res.status(410).json(describeStatus({ ...payment, status: 'expired' }, deps.clock.now()));
      return sendPage(res, 410, { kind: 'expired' }, found);
    }
    if (!result.ok && result.reason === 'service_inactive') {
      if (json) return res.status(410).json({ status: 'closed', text: closedText });
      return sendPage(res, 410, { kind: 'closed' }, found);
    }
    // Paid (now or by an earlier submit): the status of the one charge there is.
    if (json) return res.status(result.ok ? 202 : 409).json(describeStatus(payment, deps.clock.now()));
    res.redirect(303, `/checkout/${found.token}`);
  });

  return router;
}
