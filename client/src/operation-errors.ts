/**
 * Generated from openapi.yaml by scripts/client-error-codes.ts (npm run generate:client-errors):
 * do not edit. Per operation, the error statuses it documents; per status, the only error codes
 * it carries where the contract lists them (`x-error-codes`), or `null` for any `ErrorCode`.
 */
export const operationErrorCodes = {
  '/payments': {
    get: {
      400: null,
      401: null,
      429: null,
    },
    post: {
      400: null,
      401: null,
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      422: ['service_not_found', 'service_inactive'],
      429: null,
    },
  },
  '/payments/direct': {
    post: {
      400: null,
      401: null,
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      422: ['service_not_found', 'service_inactive'],
      429: null,
    },
  },
  '/payments/initiate': {
    post: {
      400: null,
      401: null,
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      422: ['service_not_found', 'service_inactive'],
      429: null,
    },
  },
  '/payments/{id}': {
    get: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
  },
  '/payouts': {
    get: {
      400: null,
      401: null,
      429: null,
    },
    post: {
      400: null,
      401: null,
      403: ['insufficient_balance'],
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      422: ['wallet_not_found', 'self_transfer'],
      429: null,
    },
  },
  '/payouts/bulk': {
    post: {
      400: null,
      401: null,
      403: ['insufficient_balance'],
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      422: ['wallet_not_found', 'self_transfer'],
      429: null,
    },
  },
  '/payouts/{id}': {
    get: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
  },
  '/refunds': {
    post: {
      400: null,
      401: null,
      403: ['insufficient_balance'],
      404: ['resource_not_found'],
      409: ['payment_not_refundable', 'idempotency_key_reused'],
      413: null,
      415: null,
      422: ['refund_exceeds_payment'],
      429: null,
    },
  },
  '/topups': {
    get: {
      400: null,
      401: null,
      429: null,
    },
    post: {
      400: null,
      401: null,
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      429: null,
    },
  },
  '/topups/{id}': {
    get: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
  },
  '/balance': {
    get: {
      400: null,
      401: null,
      429: null,
    },
  },
  '/balance/transactions': {
    get: {
      400: null,
      401: null,
      429: null,
    },
  },
  '/reports/balance-transactions': {
    get: {
      400: null,
      401: null,
      429: null,
    },
  },
  '/services': {
    get: {
      400: null,
      401: null,
      429: null,
    },
    post: {
      400: null,
      401: null,
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      429: null,
    },
  },
  '/services/{id}': {
    get: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
    put: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      409: ['service_deleted'],
      413: null,
      415: null,
      429: null,
    },
    delete: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
  },
  '/webhook-endpoints': {
    get: {
      400: null,
      401: null,
      429: null,
    },
    post: {
      400: null,
      401: null,
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      429: null,
    },
  },
  '/webhook-endpoints/{id}': {
    get: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
    put: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      413: null,
      415: null,
      429: null,
    },
    delete: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
  },
  '/webhook-endpoints/{id}/rotate-secret': {
    post: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      409: ['idempotency_key_reused'],
      429: null,
    },
  },
  '/events': {
    get: {
      400: null,
      401: null,
      429: null,
    },
  },
  '/events/{id}': {
    get: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
  },
  '/events/{id}/deliveries': {
    get: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      429: null,
    },
  },
  '/events/{id}/resend': {
    post: {
      400: null,
      401: null,
      404: ['resource_not_found'],
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      429: null,
    },
  },
  '/logs': {
    get: {
      400: null,
      401: null,
      429: null,
    },
  },
  '/api-keys': {
    get: {
      400: null,
      401: null,
      429: null,
    },
  },
  '/api-keys/rotate': {
    post: {
      400: null,
      401: null,
      409: ['idempotency_key_reused'],
      413: null,
      415: null,
      429: null,
    },
  },
  '/healthz': {
    get: {
      400: null,
      503: null,
    },
  },
} as const;
