import { Router } from 'express';
import { iterateLedger } from '../../domain/balance.js';
import { iso } from '../../domain/clock.js';
import type { Deps } from '../../domain/context.js';
import { movementTimeline, overview, searchMovements, servicesOf } from '../../domain/dashboard-views.js';
import { getPayment, listPayments } from '../../domain/payments.js';
import { createRefund, getPayout, listPayouts } from '../../domain/payouts.js';
import { getService } from '../../domain/services.js';
import { getTopup, listTopups } from '../../domain/topups.js';
import { payoutResponse } from '../../http/renderings.js';
import type { Mode, PayoutRow } from '../../storage/rows.js';
import { sendCsv } from '../csv.js';
import { formAnswer, once } from '../form-once.js';
import { refusal, translatorOf } from '../i18n.js';
import { amountField } from '../input.js';
import { label } from '../views/components.js';
import { base } from '../views/layout.js';
import {
  overviewView,
  paymentDetail,
  paymentsView,
  payoutDetail,
  payoutsView,
  searchView,
  servicesById,
  topupDetail,
  topupsView,
} from '../views/money.js';
import { act, bodyOf, callerOf, pageRequest, queryOf, render, requirePermission } from './context.js';
import { dateRange, paymentQuery, payoutQuery, topupQuery } from './list-queries.js';
import { moneyOutRoutes } from './money-out.js';

/** Overview, payments, payouts, top-ups and refunds: lists, details with timelines, refunds, the CSV report. */
export function moneyRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();

  paymentPages(router, deps, mode);
  // Before /payouts/:id, which would take `new` and `bulk` for ids.
  router.use(moneyOutRoutes(deps, mode));
  movementPages(router, deps, mode);
  searchPage(router, deps, mode);
  return router;
}

/** The overview, payments and their refunds. */
function paymentPages(router: Router, deps: Deps, mode: Mode): void {
  router.get('/', async (req, res) => {
    const caller = await callerOf(deps, req, mode);
    const [data, services] = await Promise.all([overview(deps, caller), servicesOf(deps, caller)]);
    await render(deps, req, res, mode, '', translatorOf(res).t('overview.title'), (ctx) =>
      overviewView(ctx, data, servicesById(services), deps.operatorHealth.list()),
    );
  });

  router.get('/payments', async (req, res) => {
    const query = queryOf(req);
    const caller = await callerOf(deps, req, mode);
    const [result, services] = await Promise.all([
      listPayments(deps, caller, paymentQuery(query, translatorOf(res).timeZone), pageRequest(query)),
      servicesOf(deps, caller),
    ]);
    await render(deps, req, res, mode, '/payments', translatorOf(res).t('payments.title'), (ctx) =>
      paymentsView(ctx, query, result, services),
    );
  });

  router.get('/payments/:id', async (req, res) => {
    const caller = await callerOf(deps, req, mode);
    const payment = await getPayment(deps, caller, req.params.id as string);
    const [refunds, service] = await Promise.all([
      listPayouts(deps, caller, { payment_id: payment.id }, { limit: 100 }),
      getService(deps, caller, payment.service_id).catch(() => undefined),
    ]);
    // The payment's own steps, and each refund's: its ledger entries and events.
    const timeline = await movementTimeline(deps, caller, payment.id, ...refunds.items.map((r) => r.id));
    await render(
      deps,
      req,
      res,
      mode,
      `/payments/${payment.id}`,
      translatorOf(res).t('payments.one', { id: payment.id }),
      (ctx) => paymentDetail(ctx, payment, timeline, refunds.items, service),
    );
  });

  router.post('/payments/:id/refund', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${base(mode)}/payments/${id}`, async () => {
      requirePermission(req, res, 'refund');
      const body = bodyOf(req);
      const amount = amountField(translatorOf(res), body.amount);
      const caller = await callerOf(deps, req, mode);
      const input = {
        payment_id: id,
        ...(amount !== undefined ? { amount } : {}),
        ...(body.reference ? { reference: body.reference } : {}),
      };
      const t = translatorOf(res);
      // A double click or a reload sends the same form key: one refund, never two.
      let refund: PayoutRow | undefined;
      const answer = formAnswer(req, caller, payoutResponse, {
        amount: body.amount,
        reference: body.reference,
      });
      const done = await once(async () => {
        refund = await createRefund(deps, caller, input, answer);
      });
      if (!done || !refund) return t.t('refund.already');
      return t.t('refund.done', {
        id: refund.id,
        amount: t.money(refund.amount, refund.currency),
        status: label(t, 'status', refund.status),
      });
    });
  });
}

/** Payouts, refunds, top-ups and the balance report. */
function movementPages(router: Router, deps: Deps, mode: Mode): void {
  const payoutList =
    (refunds: boolean) => async (req: import('express').Request, res: import('express').Response) => {
      const query = queryOf(req);
      const result = await listPayouts(
        deps,
        await callerOf(deps, req, mode),
        payoutQuery(query, refunds, translatorOf(res).timeZone),
        pageRequest(query),
      );
      const section = refunds ? '/refunds' : '/payouts';
      await render(
        deps,
        req,
        res,
        mode,
        section,
        translatorOf(res).t(refunds ? 'refunds.title' : 'payouts.title'),
        (ctx) => payoutsView(ctx, query, result, refunds),
      );
    };
  router.get('/payouts', payoutList(false));
  router.get('/refunds', payoutList(true));

  router.get('/payouts/:id', async (req, res) => {
    const caller = await callerOf(deps, req, mode);
    const payout = await getPayout(deps, caller, req.params.id as string);
    const timeline = await movementTimeline(deps, caller, payout.id);
    await render(
      deps,
      req,
      res,
      mode,
      `/payouts/${payout.id}`,
      translatorOf(res).t('payouts.one', { id: payout.id }),
      (ctx) => payoutDetail(ctx, payout, timeline),
    );
  });

  router.get('/topups', async (req, res) => {
    const query = queryOf(req);
    const result = await listTopups(
      deps,
      await callerOf(deps, req, mode),
      topupQuery(query, translatorOf(res).timeZone),
      pageRequest(query),
    );
    await render(deps, req, res, mode, '/topups', translatorOf(res).t('topups.title'), (ctx) =>
      topupsView(ctx, query, result),
    );
  });

  router.get('/topups/:id', async (req, res) => {
    const caller = await callerOf(deps, req, mode);
    const topup = await getTopup(deps, caller, req.params.id as string);
    const timeline = await movementTimeline(deps, caller, topup.id);
    await render(
      deps,
      req,
      res,
      mode,
      `/topups/${topup.id}`,
      translatorOf(res).t('topups.one', { id: topup.id }),
      (ctx) => topupDetail(ctx, topup, timeline),
    );
  });

  // The API's balance report (GET /reports/balance-transactions), from the page.
  router.get('/reports/balance-transactions.csv', async (req, res) => {
    const range = dateRange(queryOf(req), translatorOf(res).timeZone);
    if (range.created_gte === undefined || range.created_lt === undefined) {
      throw refusal(400, 'invalid_parameter', translatorOf(res).t('error.reportDays'), {
        param: range.created_gte === undefined ? 'from' : 'to',
      });
    }
    const rows = iterateLedger(deps, await callerOf(deps, req, mode), {
      from: Date.parse(range.created_gte),
      to: Date.parse(range.created_lt),
      currency: null,
    });
    await sendCsv(
      res,
      `balance-transactions-${mode}.csv`,
      ['id', 'created_at', 'type', 'amount', 'currency', 'balance_after', 'source_id', 'description'],
      (async function* () {
        for await (const r of rows) {
          yield [
            r.id,
            iso(r.created_at),
            r.type,
            r.amount,
            r.currency,
            r.balance_after,
            r.source_id,
            r.description,
          ];
        }
      })(),
    );
  });
}

/**
 * The search box of every page: an id, a reference or a phone number. One movement found opens
 * it; several are listed by kind.
 */
function searchPage(router: Router, deps: Deps, mode: Mode): void {
  router.get('/search', async (req, res) => {
    const q = queryOf(req).q ?? '';
    const caller = await callerOf(deps, req, mode);
    const found = await searchMovements(deps, caller, q);
    const only = found.named ?? onlyOne(found);
    if (only) return res.redirect(303, `${base(mode)}/${only.kind}/${only.id}`);
    const t = translatorOf(res);
    const services = await servicesOf(deps, caller);
    await render(deps, req, res, mode, '/search', t.t('search.title', { q: found.q }), (ctx) =>
      searchView(ctx, found, servicesById(services)),
    );
  });
}

function onlyOne(found: Awaited<ReturnType<typeof searchMovements>>) {
  const all = [
    ...found.payments.map((p) => ({ kind: 'payments' as const, id: p.id })),
    ...found.payouts.map((p) => ({ kind: 'payouts' as const, id: p.id })),
    ...found.topups.map((p) => ({ kind: 'topups' as const, id: p.id })),
  ];
  return all.length === 1 ? all[0] : undefined;
}
