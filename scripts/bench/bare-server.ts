/**
 * The ceiling of the stack: Express 5 parsing the same JSON body as `POST /v1/payments` and
 * answering a fixed JSON body of the same shape and size, with nothing else (no auth, no
 * validation, no database); the same for `GET /v1/payments/{id}` (one payment) and
 * `GET /v1/payments?limit=20` (a page of 20). `PORT` and `HOST` as for the API.
 *
 * `BARE_SERVER=like-ours` serves it as the API is served (server/http/http-server.ts: requests
 * born with Express's prototypes); without it, `app.listen`, as the Express guide does, which is
 * the baseline issue 15's targets were set against.
 */
import express from 'express';
import { httpServerFor } from '../../server/http/http-server.js';

const fixed = {
  status: 'success',
  data: {
    transaction_id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU',
    amount: 2500,
    currency: 'XAF',
    status: 'initiated',
    flow: 'direct',
    payment_method: 'mtn_momo',
    customer_msisdn: '237670000000',
    service_id: 'svc_D0ZWUJVoTsan5UIrjR1AgIMn',
    reference: 'bench',
    failure_code: null,
    refunded_amount: 0,
    checkout_url: null,
    mode: 'test',
    expires_at: '2026-11-20T09:35:00.000Z',
    created_at: '2026-11-20T09:30:00.000Z',
    updated_at: '2026-11-20T09:30:00.000Z',
    completed_at: null,
  },
};

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());
app.post('/v1/payments', (_req, res) => {
  res.status(202).json(fixed);
});
app.get('/v1/payments/:id', (_req, res) => {
  res.json(fixed);
});
const page = {
  status: 'success',
  data: {
    items: Array.from({ length: 20 }, (_, i) => ({
      ...fixed.data,
      transaction_id: `pay_26ckKthu9SR4AlZ0MBzSv${100 + i}`,
    })),
    has_more: true,
    next_cursor: 'pay_26ckKthu9SR4AlZ0MBzSv119',
  },
};
app.get('/v1/payments', (_req, res) => {
  res.json(page);
});
app.get('/v1/healthz', (_req, res) => {
  res.json({ status: 'success', data: { service: 'ok' } });
});

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const server =
  process.env.BARE_SERVER === 'like-ours' ? httpServerFor(app).listen(port, host) : app.listen(port, host);
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
