/**
 * The hosted checkout's server-side flows driven over plain HTTP, on both engines: the page is
 * fetched, its form posted as a browser without JavaScript posts it (urlencoded, redirects not
 * followed so the 303 can be seen), the JSON status endpoint polled as the page's script polls
 * it, and the payment read back over the API. Every storage path a checkout takes (finding the
 * link, the one charge it may start, the service check, settlement) runs end to end here on
 * SQLite and on PostgreSQL, without the cost of a browser.
 *
 * What only a browser can show (keyboard use, a phone-sized screen, the button's label and lock
 * while the script runs, focus after an error, no request leaving the page's origin) stays in
 * checkout-page.test.ts, which runs in Chromium on SQLite only: that behaviour does not depend
 * on the database engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MobileMoneyOperator, OperatorRequest } from '../../server/operators/operator.js';
import { createService, sandbox } from '../support/fixtures.js';
import { attributesOf, decodeEntities, formOf, type HtmlForm } from '../support/html-form.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { expectChargedOnce } from './support.js';

let server: TestServer;
let serviceId: string;
let sandboxOperator: MobileMoneyOperator;
/** Every collection the server asked the sandbox operator for, in order. */
const asked: Array<{ amount: number; msisdn: string; method: string | undefined }> = [];

beforeAll(async () => {
  server = await startTestServer();
  serviceId = await createService(server, server.test, 'Boutique Akwa');
  // The sandbox operator itself, watched: it still answers every request as before.
  const { operators } = server.service.deps;
  sandboxOperator = operators.test;
  operators.test = {
    ...sandboxOperator,
    requestToPay: (request: OperatorRequest) => {
      asked.push({ amount: request.amount, msisdn: request.msisdn, method: request.paymentMethod });
      return sandboxOperator.requestToPay(request);
    },
  };
});
afterAll(async () => {
  if (server && sandboxOperator) server.service.deps.operators.test = sandboxOperator;
  await server?.close();
});

interface Hosted {
  transaction_id: string;
  checkout_url: string;
}

async function hostedPayment(
  amount: number,
  expiresInSeconds = 1800,
  extra: { service_id?: string; reference?: string; return_url?: string } = {},
): Promise<Hosted> {
  const response = await server.raw('POST', '/payments/initiate', {
    body: { amount, currency: 'XAF', service_id: serviceId, expires_in_seconds: expiresInSeconds, ...extra },
  });
  expect(response.status).toBe(202);
  return response.body.data as Hosted;
}

async function readPayment(id: string) {
  const response = await server.raw('GET', `/payments/${id}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

/** What a browser without JavaScript gets for a link: the status and the HTML. */
async function openPage(url: string) {
  const response = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** What the page's script polls. */
async function pollStatus(checkoutUrl: string) {
  const response = await fetch(`${checkoutUrl}/status`, { headers: { accept: 'application/json' } });
  return { status: response.status, body: (await response.json()) as { status: string; text: string } };
}

function stripTags(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/[ \t\r\n]+/g, ' ')
    .trim();
}

/** The words on the page, as a reader sees them (no style, no script). */
function pageText(html: string): string {
  return stripTags(html.replace(/<(style|script)\b[^>]*>[\s\S]*?<\/\1>/g, ' '));
}

/** The element with this id: its attributes and its text; undefined when the page has none. */
function element(html: string, id: string) {
  return find(html, `id="${id}"`);
}

/** The page's status line (`role="status"`), the one a screen reader announces. */
function statusLine(html: string) {
  return find(html, 'role="status"');
}

function find(html: string, attributeText: string) {
  const match = new RegExp(`<(\\w+)\\b([^>]*\\b${attributeText}[^>]*)>([\\s\\S]*?)</\\1>`).exec(html);
  if (!match) return undefined;
  const attributes = attributesOf(match[2] as string);
  return {
    text: stripTags(match[3] as string),
    inner: match[3] as string,
    attr: (name: string): string | undefined => attributes[name],
    has: (flag: string) => flag in attributes,
  };
}

/** Fills the form as a customer would (a radio only takes a value the page offers) and posts it. */
async function submitForm(pageUrl: string, form: HtmlForm, values: Record<string, string>) {
  expect(form.method).toBe('post');
  const fields = Object.fromEntries(form.fields);
  for (const [name, value] of Object.entries(values)) {
    if (form.choices[name]) expect(form.choices[name]).toContain(value);
    else expect(Object.keys(fields)).toContain(name);
  }
  const response = await fetch(new URL(form.action, pageUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    },
    body: new URLSearchParams({ ...fields, ...values }).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** Opens the page, pays with this number and operator, and checks it is sent back to the page. */
async function payThroughForm(checkoutUrl: string, values: Record<string, string>) {
  const opened = await openPage(checkoutUrl);
  expect(opened.status).toBe(200);
  const posted = await submitForm(checkoutUrl, formOf(opened.html), values);
  expect(posted.status).toBe(303);
  expect(new URL(posted.location ?? '', checkoutUrl).href).toBe(checkoutUrl);
  return posted;
}

/** What the page's script sends: the same fields as JSON, answered as JSON. */
function postJson(checkoutUrl: string, body: Record<string, string>) {
  return fetch(`${checkoutUrl}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

const pendingText = 'Approve the payment on your phone';

describe('the hosted checkout over HTTP', () => {
  it('shows the amount and the merchant; a posted number pays, and the polled status and the API say success', async () => {
    const payment = await hostedPayment(2500);
    const before = asked.length;
    const opened = await openPage(payment.checkout_url);
    expect(opened.status).toBe(200);
    expect(element(opened.html, 'amount')?.text).toBe('FCFA\u00a02,500');
    expect(pageText(opened.html)).toContain('To Boutique Akwa');
    expect(opened.html).not.toMatch(/sk_(test|live)_/);
    const form = formOf(opened.html);
    expect(Object.fromEntries(form.fields)).toEqual({ msisdn: '', payment_method: 'mtn_momo' });
    expect(form.choices.payment_method).toEqual(['mtn_momo', 'orange_money']);
    expect((await pollStatus(payment.checkout_url)).body.status).toBe('initiated');

    const posted = await submitForm(payment.checkout_url, form, {
      msisdn: '+237 690 000 000',
      payment_method: 'orange_money',
    });
    expect(posted.status).toBe(303);
    expect(new URL(posted.location ?? '', payment.checkout_url).href).toBe(payment.checkout_url);
    expect(await pollStatus(payment.checkout_url)).toEqual({
      status: 200,
      body: { status: 'pending', text: expect.stringContaining(pendingText) },
    });
    expect(asked.slice(before)).toEqual([
      { amount: 2500, msisdn: sandbox.orange.succeeds, method: 'orange_money' },
    ]);

    await server.settle(2000);
    expect(await pollStatus(payment.checkout_url)).toEqual({
      status: 200,
      body: { status: 'success', text: 'Payment received. Thank you!' },
    });
    const page = await openPage(payment.checkout_url);
    expect(page.status).toBe(200);
    expect(statusLine(page.html)?.attr('data-status')).toBe('success');
    expect(statusLine(page.html)?.text).toBe('Payment received. Thank you!');
    expect(page.html).not.toContain('<form');
    expect(await readPayment(payment.transaction_id)).toMatchObject({
      status: 'success',
      customer_msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money',
    });
  });

  it('with a number ending in 1, follows the payment to failure and says no money was taken', async () => {
    const returnUrl = 'https://shop.example.com/orders/77';
    const payment = await hostedPayment(1000, 1800, { return_url: returnUrl });
    await payThroughForm(payment.checkout_url, { msisdn: sandbox.mtn.fails });
    expect((await pollStatus(payment.checkout_url)).body.status).toBe('pending');
    await server.settle(2000);
    const polled = await pollStatus(payment.checkout_url);
    expect(polled.body.status).toBe('failed');
    expect(polled.body.text).toContain('No money was taken');
    const page = await openPage(payment.checkout_url);
    expect(page.status).toBe(200);
    expect(statusLine(page.html)?.attr('data-status')).toBe('failed');
    expect(statusLine(page.html)?.text).toBe('The payment did not go through. No money was taken.');
    // Final, so the way back to the merchant shows.
    expect(element(page.html, 'return')?.has('hidden')).toBe(false);
    expect(await readPayment(payment.transaction_id)).toMatchObject({
      status: 'failed',
      failure_code: 'payer_declined',
      customer_msisdn: sandbox.mtn.fails,
      payment_method: 'mtn_momo',
    });
  });

  it('answers a bad phone number with 400, the error explained and the form kept as typed', async () => {
    const payment = await hostedPayment(1200);
    const before = asked.length;
    const opened = await openPage(payment.checkout_url);
    const posted = await submitForm(payment.checkout_url, formOf(opened.html), {
      msisdn: '6700',
      payment_method: 'orange_money',
    });
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
    const error = element(posted.html, 'msisdn-error');
    expect(error?.has('hidden')).toBe(false);
    expect(error?.attr('role')).toBe('alert');
    expect(error?.text).toContain('country code');
    const again = formOf(posted.html);
    expect(Object.fromEntries(again.fields)).toEqual({ msisdn: '6700', payment_method: 'orange_money' });
    expect(/<input\b[^>]*\bid="msisdn"[^>]*>/.exec(posted.html)?.[0]).toContain('aria-invalid="true"');
    expect(element(posted.html, 'amount')?.text).toBe('FCFA\u00a01,200');
    // The script's JSON submit is refused the same way.
    const json = await postJson(payment.checkout_url, { msisdn: '12', payment_method: 'mtn_momo' });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({
      error: 'invalid_msisdn',
      text: expect.stringContaining('country code'),
    });
    // Nothing was charged, nothing recorded on the payment.
    expect(asked.length).toBe(before);
    expect(await readPayment(payment.transaction_id)).toMatchObject({
      status: 'initiated',
      customer_msisdn: null,
    });
    expect((await pollStatus(payment.checkout_url)).body.status).toBe('initiated');
    // The form it was given back, corrected, pays.
    const corrected = await submitForm(payment.checkout_url, again, { msisdn: sandbox.orange.succeeds });
    expect(corrected.status).toBe(303);
    expect(asked.slice(before)).toEqual([
      { amount: 1200, msisdn: sandbox.orange.succeeds, method: 'orange_money' },
    ]);
  });

  it('refuses an operator that does not serve the number typed, nothing charged', async () => {
    const payment = await hostedPayment(1300);
    const before = asked.length;
    const opened = await openPage(payment.checkout_url);
    const posted = await submitForm(payment.checkout_url, formOf(opened.html), {
      msisdn: '670 00 00 00',
      payment_method: 'orange_money',
    });
    expect(posted.status).toBe(422);
    expect(element(posted.html, 'msisdn-error')?.text).toContain('MTN Mobile Money');
    expect(asked.length).toBe(before);
    const corrected = await submitForm(payment.checkout_url, formOf(posted.html), {
      payment_method: 'mtn_momo',
    });
    expect(corrected.status).toBe(303);
    expect(asked.slice(before)).toEqual([{ amount: 1300, msisdn: sandbox.mtn.succeeds, method: 'mtn_momo' }]);
  });

  it('an expired link shows a clear page and cannot be paid', async () => {
    const payment = await hostedPayment(500, 60);
    const opened = await openPage(payment.checkout_url);
    const form = formOf(opened.html);
    const before = asked.length;
    server.clock.advance(61_000);

    const page = await openPage(payment.checkout_url);
    expect(page.status).toBe(410);
    expect(statusLine(page.html)?.text).toBe('This payment link has expired. No money was taken.');
    expect(pageText(page.html)).toContain('Ask the merchant for a new payment link.');
    expect(page.html).not.toContain('<form');
    expect(element(page.html, 'expires-at')).toBeUndefined();
    // What the form page's script polls says the same, before any worker marked the payment.
    expect(await pollStatus(payment.checkout_url)).toEqual({
      status: 200,
      body: { status: 'expired', text: 'This payment link has expired. No money was taken.' },
    });

    // The form opened before it expired is refused, with the same page.
    const posted = await submitForm(payment.checkout_url, form, { msisdn: sandbox.mtn.succeeds });
    expect(posted.status).toBe(410);
    expect(statusLine(posted.html)?.text).toBe('This payment link has expired. No money was taken.');
    const json = await postJson(payment.checkout_url, {
      msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
    });
    expect(json.status).toBe(410);
    expect(((await json.json()) as { status: string }).status).toBe('expired');

    await server.settle(2000);
    expect(asked.length).toBe(before);
    const read = await readPayment(payment.transaction_id);
    expect(read.customer_msisdn).toBeNull();
    expect(read.status).not.toBe('success');
  });

  it('an unknown link is a not-found page', async () => {
    const origin = new URL(server.url).origin;
    for (const token of [`cs_${'x'.repeat(32)}`, 'not-a-token']) {
      const url = `${origin}/checkout/${token}`;
      const page = await openPage(url);
      expect(page.status).toBe(404);
      expect(pageText(page.html)).toContain('Payment link not found');
      expect(page.html).not.toContain('<form');
      expect(await pollStatus(url)).toEqual({
        status: 404,
        body: {
          status: 'not_found',
          text: 'This link does not lead to a payment. Check that you copied the whole link, or ask the merchant for a new one.',
        },
      });
    }
    const posted = await submitForm(
      `${origin}/checkout/cs_${'y'.repeat(32)}`,
      { action: `/checkout/cs_${'y'.repeat(32)}/pay`, method: 'post', fields: [['msisdn', '']], choices: {} },
      { msisdn: sandbox.mtn.succeeds },
    );
    expect(posted.status).toBe(404);
    expect(pageText(posted.html)).toContain('Payment link not found');
  });

  it('a double submit pays once: two form posts at once start one charge, a later one from another tab none', async () => {
    const payment = await hostedPayment(700);
    const [first, second] = await Promise.all([
      openPage(payment.checkout_url),
      openPage(payment.checkout_url),
    ]);
    const before = asked.length;
    const posts = await Promise.all(
      [first, second].map((page) =>
        submitForm(payment.checkout_url, formOf(page.html), { msisdn: sandbox.mtn.succeeds }),
      ),
    );
    expect(posts.map((p) => [p.status, p.location])).toEqual([
      [303, new URL(payment.checkout_url).pathname],
      [303, new URL(payment.checkout_url).pathname],
    ]);
    // Another tab, opened before the charge, submits another number: sent back to the status.
    const third = await submitForm(payment.checkout_url, formOf(first.html), {
      msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money',
    });
    expect(third.status).toBe(303);
    const page = await openPage(payment.checkout_url);
    expect(statusLine(page.html)?.text).toContain(pendingText);
    expect(asked.slice(before)).toEqual([{ amount: 700, msisdn: sandbox.mtn.succeeds, method: 'mtn_momo' }]);

    await server.settle(2000);
    expect((await pollStatus(payment.checkout_url)).body.status).toBe('success');
    const read = await readPayment(payment.transaction_id);
    expect(read).toMatchObject({ status: 'success', customer_msisdn: sandbox.mtn.succeeds });
    await expectChargedOnce(server, payment.transaction_id);
  });

  it("the script's JSON submit sent twice at once is accepted once (202) and answered 409 the second time", async () => {
    const payment = await hostedPayment(650);
    const before = asked.length;
    const body = { msisdn: sandbox.orange.succeeds, payment_method: 'orange_money' };
    const answers = await Promise.all([
      postJson(payment.checkout_url, body),
      postJson(payment.checkout_url, body),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    for (const answer of answers) {
      expect(await answer.json()).toEqual({ status: 'pending', text: expect.stringContaining(pendingText) });
    }
    expect(asked.slice(before)).toEqual([
      { amount: 650, msisdn: sandbox.orange.succeeds, method: 'orange_money' },
    ]);
    await server.settle(2000);
    expect(await readPayment(payment.transaction_id)).toMatchObject({
      status: 'success',
      payment_method: 'orange_money',
    });
  });

  it('works without JavaScript: the form posts, redirects to the link, and the status page follows the payment', async () => {
    const payment = await hostedPayment(300);
    const posted = await payThroughForm(payment.checkout_url, { msisdn: '237 670-000-000' });
    expect(posted.location).toBe(new URL(payment.checkout_url).pathname);
    const pending = await openPage(new URL(posted.location ?? '', payment.checkout_url).href);
    expect(pending.status).toBe(200);
    expect(pending.headers.get('cache-control')).toBe('no-store');
    const status = statusLine(pending.html);
    expect(status?.attr('data-status')).toBe('pending');
    expect(status?.attr('id')).toBe('status');
    expect(status?.text).toBe('Approve the payment on your phone. This page updates by itself.');
    expect(pending.html).not.toContain('<form');
    // Without JavaScript the browser reloads it: a refresh read only when scripts are off.
    expect(/<head>[\s\S]*<\/head>/.exec(pending.html)?.[0]).toContain(
      '<noscript><meta http-equiv="refresh" content="3"></noscript>',
    );

    await server.settle(2000);
    const done = await openPage(payment.checkout_url);
    expect(statusLine(done.html)?.attr('data-status')).toBe('success');
    expect(statusLine(done.html)?.text).toBe('Payment received. Thank you!');
    // Once final, the page has nothing left to follow.
    expect(done.html).not.toContain('<script');
    expect(done.html).not.toContain('http-equiv="refresh"');
    expect(await readPayment(payment.transaction_id)).toMatchObject({
      status: 'success',
      customer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
    });
  });

  it('marks a sandbox page as test mode, and shows the reference and until when the link is valid', async () => {
    const until = new Date(server.clock.now() + 900_000).toISOString().slice(0, 16).replace('T', ' ');
    const payment = await hostedPayment(2500, 900, { reference: 'order-7731' });
    const page = await openPage(payment.checkout_url);
    expect(page.status).toBe(200);
    const note = element(page.html, 'test-mode');
    expect(note?.attr('role')).toBe('note');
    expect(note?.text).toContain('Test mode');
    expect(element(page.html, 'reference')?.text).toBe('order-7731');
    // Cameroon's time, in the page's language, with the UTC time on hover.
    const douala = new Intl.DateTimeFormat('en-CM', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Africa/Douala',
    }).format(server.clock.now() + 900_000);
    expect(element(page.html, 'expires-at')?.text).toBe(douala);
    expect(element(page.html, 'expires-at')?.inner).toContain(`title="${until} UTC"`);
    expect((await readPayment(payment.transaction_id)).expires_at.slice(0, 16).replace('T', ' ')).toBe(until);
  });

  for (const change of ['inactive', 'deleted'] as const) {
    it(`refuses to charge once its service is ${change}, on a page opened before or after`, async () => {
      const own = await createService(server, server.test, `Shop to be ${change}`);
      const payment = await hostedPayment(900, 1800, { service_id: own });
      const openedBefore = await openPage(payment.checkout_url);
      expect(openedBefore.status).toBe(200);
      const before = asked.length;
      const changed =
        change === 'inactive'
          ? await server.raw('PUT', `/services/${own}`, { body: { status: 'inactive' } })
          : await server.raw('DELETE', `/services/${own}`);
      expect(changed.status).toBeLessThan(300);

      // The page opened before: its submit is refused, and says so.
      const posted = await submitForm(payment.checkout_url, formOf(openedBefore.html), {
        msisdn: sandbox.mtn.succeeds,
      });
      expect(posted.status).toBe(410);
      expect(statusLine(posted.html)?.text).toContain('no longer takes payments');
      expect(statusLine(posted.html)?.text).toContain('No money was taken');
      // Opened after: a closed page, no form.
      const after = await openPage(payment.checkout_url);
      expect(after.status).toBe(410);
      expect(pageText(after.html)).toContain('no longer takes payments');
      expect(pageText(after.html)).toContain(`To Shop to be ${change}`);
      expect(after.html).not.toContain('<form');
      // The script's JSON submit: refused too.
      const json = await postJson(payment.checkout_url, {
        msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
      });
      expect(json.status).toBe(410);
      expect(((await json.json()) as { status: string }).status).toBe('closed');

      expect(asked.length).toBe(before);
      expect(await readPayment(payment.transaction_id)).toMatchObject({
        status: 'initiated',
        customer_msisdn: null,
      });
      await server.settle(2000);
      expect((await readPayment(payment.transaction_id)).status).toBe('initiated');
    });
  }

  it('takes an optional return_url, and links back to it once the payment is final', async () => {
    const returnUrl = 'https://shop.example.com/orders/1042?paid=1&lang=fr';
    const payment = await hostedPayment(1800, 1800, { return_url: returnUrl });
    const opened = await openPage(payment.checkout_url);
    const onForm = element(opened.html, 'return');
    expect(onForm?.has('hidden')).toBe(true);
    await payThroughForm(payment.checkout_url, { msisdn: sandbox.mtn.succeeds });
    const pending = await openPage(payment.checkout_url);
    expect(statusLine(pending.html)?.attr('data-status')).toBe('pending');
    expect(element(pending.html, 'return')?.has('hidden')).toBe(true);

    await server.settle(2000);
    expect((await pollStatus(payment.checkout_url)).body.status).toBe('success');
    const done = await openPage(payment.checkout_url);
    const back = element(done.html, 'return');
    expect(back?.has('hidden')).toBe(false);
    expect(back?.text).toBe('Back to Boutique Akwa');
    expect(attributesOf(/<a\b([^>]*)>/.exec(back?.inner ?? '')?.[1] ?? '').href).toBe(returnUrl);
    expect((await readPayment(payment.transaction_id)).return_url).toBe(returnUrl);

    // Without a return_url there is no link back.
    const plain = await hostedPayment(1801);
    expect(element((await openPage(plain.checkout_url)).html, 'return')).toBeUndefined();
  });

  it('in live mode takes an https return_url only; the sandbox takes any', async () => {
    const live = await createService(server, server.live, 'Live shop');
    const initiate = (returnUrl: string) =>
      server.raw('POST', '/payments/initiate', {
        as: server.live,
        body: { amount: 1000, currency: 'XAF', service_id: live, return_url: returnUrl },
      });
    const refused = await initiate('http://shop.example.com/orders/1');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_field', param: 'return_url' });
    const accepted = await initiate('https://shop.example.com/orders/1');
    expect(accepted.status).toBe(202);
    // The live page (only opened: paying it would call a real operator) is not marked test mode.
    const livePage = await openPage(accepted.body.data.checkout_url);
    expect(livePage.status).toBe(200);
    expect(pageText(livePage.html)).toContain('To Live shop');
    expect(element(livePage.html, 'test-mode')).toBeUndefined();
    const sandboxPayment = await hostedPayment(1000, 1800, { return_url: 'http://127.0.0.1:8080/orders/1' });
    expect(sandboxPayment.checkout_url).toMatch(/\/checkout\/cs_[0-9A-Za-z]{32}$/);
    expect((await readPayment(sandboxPayment.transaction_id)).return_url).toBe(
      'http://127.0.0.1:8080/orders/1',
    );
  });
});
