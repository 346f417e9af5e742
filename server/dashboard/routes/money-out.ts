import { randomUUID } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { currencyValues, type Payout, type PayoutCreate } from '../../../generated/openapi.js';
import type { Caller, Deps } from '../../domain/context.js';
import { setFlash } from '../../domain/dashboard-users.js';
import { ApiError } from '../../domain/errors.js';
import { createPayout, type PayoutPreview, previewPayout, previewPayouts } from '../../domain/payouts.js';
import { payoutResponse } from '../../http/renderings.js';
import type { Translator } from '../../i18n/translator.js';
import type { Mode, PayoutRow } from '../../storage/rows.js';
import { bulkMaxBytes, bulkMaxLines, type CsvLine, parseCsv } from '../csv.js';
import { keyedAnswer, onceOrStored } from '../form-once.js';
import { errorText, refusal, translatorOf } from '../i18n.js';
import { amountField } from '../input.js';
import { label } from '../views/components.js';
import { base } from '../views/layout.js';
import {
  type BulkLine,
  bulkConfirmView,
  bulkFormView,
  bulkSentView,
  type PayoutForm,
  payoutConfirmView,
  payoutFormView,
} from '../views/money-out.js';
import { bodyOf, callerOf, queryOf, render, requirePermission } from './context.js';

const columns = ['recipient', 'amount', 'currency', 'reference', 'type'] as const;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Money out from the dashboard (owners only): one payout with its confirmation, and bulk payouts
 * from an uploaded CSV file. Each payout is sent by the API's own `createPayout` through
 * `write()`, under an idempotency key the confirmation page carries: a double submit or a
 * reload sends one payout (docs/decisions/0044-dashboard-money-out.md).
 */
export function moneyOutRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  singlePayoutPages(router, deps, mode);
  bulkPayoutPages(router, deps, mode);
  return router;
}

function singlePayoutPages(router: Router, deps: Deps, mode: Mode): void {
  const showForm = async (req: Request, res: Response, form: PayoutForm, error?: ApiError) => {
    const t = translatorOf(res);
    if (error) req.context.errorCode = error.code;
    await render(
      deps,
      req,
      res,
      mode,
      '/payouts/new',
      t.t('moneyOut.send'),
      (ctx) => payoutFormView(ctx, form, error ? errorText(t, error) : undefined),
      error?.status ?? 200,
    );
  };

  router.get('/payouts/new', async (req, res) => {
    requirePermission(req, res, 'payout');
    const caller = await callerOf(deps, req, mode);
    const query = queryOf(req);
    await showForm(req, res, { ...formOf(query), currency: query.currency ?? caller.defaultCurrency });
  });

  router.post('/payouts/new', async (req, res) => {
    requirePermission(req, res, 'payout');
    const caller = await callerOf(deps, req, mode);
    const t = translatorOf(res);
    const form = formOf(bodyOf(req));
    try {
      const input = payoutInputOf(t, form);
      const preview = await previewPayout(deps, caller, input);
      // The key of this confirmation: a second submit, a reload or a retry sends it again.
      const key = randomUUID();
      await render(deps, req, res, mode, '/payouts/new', t.t('moneyOut.confirmTitle'), (ctx) =>
        payoutConfirmView(ctx, input, preview, key),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await showForm(req, res, form, error);
    }
  });

  router.post('/payouts/send', async (req, res) => {
    requirePermission(req, res, 'payout');
    const caller = await callerOf(deps, req, mode);
    const t = translatorOf(res);
    const body = bodyOf(req);
    const form = formOf(body);
    try {
      const key = body.idempotency_key ?? '';
      if (!uuid.test(key)) {
        throw refusal(400, 'invalid_field', t.t('moneyOut.badConfirmation'), { param: 'idempotency_key' });
      }
      const sent = await sendPayout(deps, caller, payoutInputOf(t, form), `payout:${key}`);
      const text = sent.replayed
        ? t.t('moneyOut.alreadySent', { id: sent.id })
        : t.t('moneyOut.sent', {
            id: sent.id,
            amount: t.money(sent.amount, sent.currency),
            status: label(t, 'status', sent.status),
          });
      if (req.dashboard) await setFlash(deps, req.dashboard, JSON.stringify({ kind: 'ok', text }));
      res.redirect(303, `${base(mode)}/payouts/${sent.id}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await showForm(req, res, form, error);
    }
  });
}

function bulkPayoutPages(router: Router, deps: Deps, mode: Mode): void {
  const showForm = async (req: Request, res: Response, csv: string, problems: BulkLine[] = []) => {
    const t = translatorOf(res);
    if (problems.length) req.context.errorCode = 'invalid_field';
    await render(
      deps,
      req,
      res,
      mode,
      '/payouts/bulk',
      t.t('bulkOut.title'),
      (ctx) => bulkFormView(ctx, csv, problems),
      problems.length ? 422 : 200,
    );
  };

  router.get('/payouts/bulk', async (req, res) => {
    requirePermission(req, res, 'payout');
    await showForm(req, res, '');
  });

  // The upload: a file (multipart, read by hand: server/dashboard/multipart.ts) or pasted lines.
  router.post('/payouts/bulk', async (req, res) => {
    requirePermission(req, res, 'payout');
    const caller = await callerOf(deps, req, mode);
    const t = translatorOf(res);
    const body = bodyOf(req);
    const csv = body.file?.trim() ? body.file : (body.csv ?? '');
    const checked = await checkUpload(deps, caller, t, csv);
    if ('problems' in checked) return showForm(req, res, csv, checked.problems);
    // The upload's id: each line's payout is keyed by it and the line's number.
    const uploadId = randomUUID();
    await render(deps, req, res, mode, '/payouts/bulk', t.t('bulkOut.confirmTitle'), (ctx) =>
      bulkConfirmView(ctx, csv, uploadId, checked.lines),
    );
  });

  router.post('/payouts/bulk/send', async (req, res) => {
    requirePermission(req, res, 'payout');
    const caller = await callerOf(deps, req, mode);
    const t = translatorOf(res);
    const body = bodyOf(req);
    const uploadId = body.upload_id ?? '';
    if (!uuid.test(uploadId)) {
      throw refusal(400, 'invalid_field', t.t('moneyOut.badConfirmation'), { param: 'upload_id' });
    }
    const read = readUpload(t, body.csv ?? '');
    if ('problems' in read) return showForm(req, res, body.csv ?? '', read.problems);
    // Each line as its own payout, checked again in its own transaction: the balance may have
    // changed since the confirmation, and a line already sent is answered as it was.
    const results: BulkLine[] = [];
    for (const line of read.lines) {
      try {
        const sent = await sendPayout(deps, caller, line.input, `bulk-payout:${uploadId}:${line.line}`);
        results.push({ ...line, sent });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({ ...line, reason: errorText(t, error) });
      }
    }
    await render(deps, req, res, mode, '/payouts/bulk', t.t('bulkOut.sentTitle'), (ctx) =>
      bulkSentView(ctx, results),
    );
  });
}

/** The fields of the payout form, from its body or its query. */
function formOf(values: Record<string, string | undefined>): PayoutForm {
  return {
    recipient: values.recipient ?? '',
    amount: values.amount ?? '',
    currency: values.currency ?? '',
    reference: values.reference ?? '',
    type: values.type ?? '',
  };
}

/**
 * The form (or a CSV line) as the API's `PayoutCreate`, checked by the contract's limits: a
 * wallet id (`wal_…`) is a transfer to that wallet, anything else a number, which the domain
 * normalises and routes (server/domain/msisdn.ts); the type defaults to a withdrawal to a number.
 */
function payoutInputOf(t: Translator, form: PayoutForm): PayoutCreate {
  const recipient = form.recipient.trim();
  if (!recipient)
    throw refusal(400, 'invalid_recipient', t.t('moneyOut.needRecipient'), { param: 'recipient' });
  const wallet = recipient.startsWith('wal_');
  if (wallet && !/^wal_[0-9A-Za-z]{24}$/.test(recipient)) {
    throw refusal(400, 'invalid_recipient', t.t('moneyOut.badWallet'), { param: 'recipient' });
  }
  const amount = amountField(t, form.amount.trim());
  if (amount === undefined)
    throw refusal(400, 'invalid_amount', t.t('error.wholeAmount'), { param: 'amount' });
  const currency = form.currency.trim().toUpperCase();
  if (currency && !(currencyValues as readonly string[]).includes(currency)) {
    throw refusal(400, 'invalid_field', t.t('moneyOut.badCurrency', { list: currencyValues.join(', ') }), {
      param: 'currency',
    });
  }
  const reference = form.reference.trim();
  if (reference.length > 64) {
    throw refusal(400, 'invalid_field', t.t('moneyOut.badReference'), { param: 'reference' });
  }
  const type = form.type.trim() || (wallet ? 'transfer' : 'withdrawal');
  if (type !== 'withdrawal' && type !== 'transfer') {
    throw refusal(400, 'invalid_field', t.t('moneyOut.badType'), { param: 'type' });
  }
  return {
    amount,
    ...(currency ? { currency: currency as PayoutCreate['currency'] } : {}),
    ...(wallet ? { recipient_wallet_id: recipient } : { recipient_msisdn: recipient }),
    payout_type: type,
    ...(reference ? { reference } : {}),
  };
}

/** A payout sent as `POST /payouts` sends it, under `key`; a key already answered is that payout. */
async function sendPayout(
  deps: Deps,
  caller: Caller,
  input: PayoutCreate,
  key: string,
): Promise<Pick<PayoutRow, 'id' | 'amount' | 'currency' | 'status'> & { replayed: boolean }> {
  const answer = keyedAnswer(caller, key, payoutResponse, `POST /payouts\n${JSON.stringify(input)}`, 202);
  const sent = await onceOrStored(() => createPayout(deps, caller, input, answer));
  if (sent.done) {
    const row = sent.value;
    return { id: row.id, amount: row.amount, currency: row.currency, status: row.status, replayed: false };
  }
  const stored = (sent.stored as { data: Payout }).data;
  return {
    id: stored.transaction_id,
    amount: stored.amount,
    currency: stored.currency,
    status: stored.status,
    replayed: true,
  };
}

type ReadUpload = { lines: Array<{ line: number; input: PayoutCreate }> } | { problems: BulkLine[] };

/** The upload's lines as payouts, or every line that is not one, with its reason. */
function readUpload(t: Translator, csv: string): ReadUpload {
  const whole = (reason: string): ReadUpload => ({ problems: [{ line: 0, reason }] });
  const size = { lines: bulkMaxLines, kib: bulkMaxBytes / 1024 };
  if (Buffer.byteLength(csv) > bulkMaxBytes) return whole(t.t('bulkOut.tooLarge', size));
  const parsed = parseCsv(csv);
  if (parsed.openQuoteAt !== null)
    return { problems: [{ line: parsed.openQuoteAt, reason: t.t('bulkOut.openQuote') }] };
  const [header, ...rows] = parsed.lines;
  if (!header || rows.length === 0) return whole(t.t('bulkOut.empty'));
  if (rows.length > bulkMaxLines) return whole(t.t('bulkOut.tooLarge', size));
  const names = header.fields.map((name) => name.trim().toLowerCase());
  const unknown = names.find((name) => !(columns as readonly string[]).includes(name));
  if (unknown !== undefined)
    return {
      problems: [
        {
          line: header.line,
          reason: t.t('bulkOut.unknownColumn', { name: unknown, columns: columns.join(', ') }),
        },
      ],
    };
  for (const needed of ['recipient', 'amount']) {
    if (!names.includes(needed))
      return { problems: [{ line: header.line, reason: t.t('bulkOut.missingColumn', { name: needed }) }] };
  }
  const lines: Array<{ line: number; input: PayoutCreate }> = [];
  const problems: BulkLine[] = [];
  for (const row of rows) {
    const read = lineInput(t, names, row);
    if (read instanceof ApiError) problems.push({ line: row.line, reason: errorText(t, read) });
    else lines.push({ line: row.line, input: read });
  }
  return problems.length ? { problems } : { lines };
}

function lineInput(t: Translator, names: string[], row: CsvLine): PayoutCreate | ApiError {
  if (row.fields.length !== names.length) {
    return refusal(
      400,
      'invalid_field',
      t.t('bulkOut.fieldCount', { count: row.fields.length, expected: names.length }),
    );
  }
  const value = (name: string) => row.fields[names.indexOf(name)] ?? '';
  try {
    return payoutInputOf(t, formOf(Object.fromEntries(columns.map((name) => [name, value(name)]))));
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/**
 * The upload checked line by line before anything is sent: its form, then each payout as
 * `createPayout` would check it (recipient, network, wallet) and the balance each takes, in one
 * read. Any bad line refuses the whole file.
 */
async function checkUpload(
  deps: Deps,
  caller: Caller,
  t: Translator,
  csv: string,
): Promise<{ lines: BulkLine[] } | { problems: BulkLine[] }> {
  const read = readUpload(t, csv);
  if ('problems' in read) return read;
  const previews = await previewPayouts(
    deps,
    caller,
    read.lines.map((line) => line.input),
  );
  const lines: BulkLine[] = [];
  const problems: BulkLine[] = [];
  const totals = new Map<string, { total: number; available: number | null }>();
  read.lines.forEach((line, i) => {
    const preview = previews[i] as PayoutPreview | ApiError;
    const currency = line.input.currency ?? caller.defaultCurrency;
    const sum = totals.get(currency) ?? { total: 0, available: null };
    sum.total += line.input.amount;
    totals.set(currency, sum);
    if (preview instanceof ApiError) {
      problems.push({ ...line, reason: errorText(t, preview) });
      return;
    }
    sum.available ??= preview.available;
    lines.push({ ...line, preview });
  });
  for (const [currency, sum] of totals) {
    if (sum.available !== null && sum.total > sum.available) {
      problems.unshift({
        line: 0,
        reason: t.t('bulkOut.total', {
          total: t.money(sum.total, currency),
          available: t.money(sum.available, currency),
        }),
      });
    }
  }
  return problems.length ? { problems } : { lines };
}
