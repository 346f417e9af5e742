/** Objects most tests need, created through the API as an integrator would. */
import type { Credentials, TestServer } from './server.js';

export const successNumber = '237670000000';
export const failureNumber = '237670000001';
export const neverSettlesNumber = '237670000004';

export async function createService(server: TestServer, as: Credentials = server.test, name = 'Shop') {
  const response = await server.request('POST', '/services', { body: { name }, as });
  if (response.status !== 201) throw new Error(`createService: ${response.status} ${response.text}`);
  return response.body.data.service_id as string;
}

/** Tops up the Main Balance and settles it, so payouts can be tested. */
export async function fund(
  server: TestServer,
  amount: number,
  as: Credentials = server.test,
  currency = 'XAF',
) {
  const response = await server.request('POST', '/topups', {
    as,
    body: { amount, currency, payer_msisdn: successNumber, payment_method: 'mtn_momo' },
  });
  if (response.status !== 202) throw new Error(`fund: ${response.status} ${response.text}`);
  await server.settle();
  return response.body.data.transaction_id as string;
}

export async function balanceOf(server: TestServer, as: Credentials = server.test, currency = 'XAF') {
  const response = await server.request('GET', '/balance', { as });
  const entry = (response.body.data.balances as Array<{ currency: string; available: number }>).find(
    (b) => b.currency === currency,
  );
  return entry?.available ?? 0;
}

export async function collect(
  server: TestServer,
  serviceId: string,
  amount: number,
  msisdn = successNumber,
  as: Credentials = server.test,
) {
  const response = await server.request('POST', '/payments', {
    as,
    body: {
      amount,
      currency: 'XAF',
      customer_msisdn: msisdn,
      payment_method: 'mtn_momo',
      service_id: serviceId,
    },
  });
  if (response.status !== 202) throw new Error(`collect: ${response.status} ${response.text}`);
  return response.body.data.transaction_id as string;
}
