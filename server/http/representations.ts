import type {
  ApiKey,
  BalanceTransaction,
  BankBatch as BankBatchJson,
  Delivery,
  Event,
  Log,
  OperatorConnection as OperatorConnectionJson,
  Payment,
  Payout,
  Service,
  Topup,
  WebhookEndpoint,
} from '../../generated/openapi.js';
import { eventNameValues } from '../../generated/openapi.js';
import { keyStatus } from '../domain/accounts.js';
import type { BankBatch } from '../domain/bank-batches.js';
import { iso } from '../domain/clock.js';
import { permissionsOf } from '../domain/key-roles.js';
import { metadataOf } from '../domain/metadata.js';
import type { OperatorConnection } from '../operators/operator-health.js';
import type { Page } from '../storage/pagination.js';
import type {
  ApiKeyRow,
  CallLogRow,
  DeliveryRow,
  EventRow,
  LedgerRow,
  ListedPaymentRow,
  ListedPayoutRow,
  ListedTopupRow,
  ServiceRow,
  WebhookEndpointRow,
} from '../storage/rows.js';

/** Stored rows as the contract shows them: ISO times, no internal columns. */

export function toPayment(row: ListedPaymentRow, publicUrl: string): Payment {
  return {
    transaction_id: row.id,
    amount: row.amount,
    currency: row.currency as Payment['currency'],
    status: row.status,
    flow: row.flow,
    payment_method: row.payment_method as Payment['payment_method'],
    customer_msisdn: row.customer_msisdn,
    service_id: row.service_id,
    reference: row.reference,
    metadata: metadataOf(row.metadata),
    failure_code: row.failure_code as Payment['failure_code'],
    refunded_amount: row.refunded_amount,
    checkout_url: row.checkout_token ? `${publicUrl}/checkout/${row.checkout_token}` : null,
    return_url: row.return_url,
    mode: row.mode,
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    completed_at: iso(row.completed_at),
  };
}

function toBankAccount(row: ListedPayoutRow): Payout['recipient_bank_account'] {
  const iban = row.recipient_iban as string;
  return {
    iban,
    holder_name: row.recipient_name as string,
    bic: row.recipient_bic,
    bank_code: iban.slice(4, 9),
    branch_code: iban.slice(9, 14),
    account_number: iban.slice(14, 25),
  };
}

export function toPayout(row: ListedPayoutRow): Payout {
  return {
    transaction_id: row.id,
    amount: row.amount,
    currency: row.currency as Payout['currency'],
    status: row.status,
    payout_type: row.payout_type,
    recipient_msisdn: row.recipient_msisdn,
    recipient_wallet_id: row.recipient_wallet_id,
    recipient_bank_account: row.recipient_iban ? toBankAccount(row) : null,
    bank_batch_id: row.bank_batch_id,
    payment_method: row.payment_method as Payout['payment_method'],
    payment_id: row.payment_id,
    bulk_id: row.bulk_id,
    reference: row.reference,
    metadata: metadataOf(row.metadata),
    failure_code: row.failure_code as Payout['failure_code'],
    mode: row.mode,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    completed_at: iso(row.completed_at),
  };
}

export function toTopup(row: ListedTopupRow): Topup {
  return {
    transaction_id: row.id,
    amount: row.amount,
    currency: row.currency as Topup['currency'],
    status: row.status,
    payer_msisdn: row.payer_msisdn,
    payment_method: row.payment_method as Topup['payment_method'],
    reference: row.reference,
    metadata: metadataOf(row.metadata),
    failure_code: row.failure_code as Topup['failure_code'],
    mode: row.mode,
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    completed_at: iso(row.completed_at),
  };
}

export function toService(row: ServiceRow): Service {
  return {
    service_id: row.id,
    name: row.name,
    description: row.description,
    type: row.type as Service['type'],
    status: row.status,
    mode: row.mode,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    deleted_at: iso(row.deleted_at),
  };
}

export function toLedgerEntry(row: LedgerRow): BalanceTransaction {
  return {
    id: row.id,
    type: row.type,
    amount: row.amount,
    currency: row.currency as BalanceTransaction['currency'],
    balance_after: row.balance_after,
    source_id: row.source_id,
    description: row.description,
    created_at: iso(row.created_at),
  };
}

export function toEvent(row: EventRow): Event {
  return JSON.parse(row.payload) as Event;
}

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events ? (JSON.parse(row.events) as WebhookEndpoint['events']) : [...eventNameValues],
    description: row.description,
    status: row.status,
    mode: row.mode,
    previous_secret_expires_at: iso(row.previous_secret_expires_at),
    paused_until: iso(row.paused_until),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    event_id: row.event_id,
    endpoint_id: row.endpoint_id,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: iso(row.next_attempt_at),
    last_attempt_at: iso(row.last_attempt_at),
    last_response_status: row.last_response_status,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    created_at: iso(row.created_at),
  };
}

export function toLog(row: CallLogRow): Log {
  return {
    id: row.id,
    request_id: row.request_id,
    method: row.method,
    path: row.path,
    status: row.status,
    duration_ms: row.duration_ms,
    mode: row.mode ?? 'test',
    key_id: row.key_id,
    error_code: row.error_code,
    created_at: iso(row.created_at),
  };
}

export function toApiKey(row: ApiKeyRow, now: number): ApiKey {
  const status = keyStatus(row, now);
  return {
    id: row.id,
    mode: row.mode,
    role: row.role,
    permissions: [...permissionsOf(row.role)],
    last4: row.last4,
    status,
    created_at: iso(row.created_at),
    expires_at: status === 'revoked' ? iso(row.revoked_at ?? row.expires_at) : iso(row.expires_at),
  };
}

export function toPage<A, B>(page: Page<A>, map: (item: A) => B): Page<B> {
  return { items: page.items.map(map), has_more: page.has_more, next_cursor: page.next_cursor };
}

export function toBankBatch(view: BankBatch): BankBatchJson {
  const { batch } = view;
  return {
    batch_id: batch.id,
    currency: batch.currency as BankBatchJson['currency'],
    payout_count: batch.payout_count,
    control_sum: batch.control_sum,
    pending_count: view.pendingCount,
    file_format: 'pain.001.001.03',
    mode: batch.mode,
    created_at: iso(batch.created_at),
    statements: view.statements.map((statement) => ({
      message_id: statement.message_id,
      applied: statement.applied,
      received_at: iso(statement.received_at),
    })),
  };
}

/** One live operator product's connection, as `GET /v1/healthz` shows it. */
export function toOperatorConnection(entry: OperatorConnection): OperatorConnectionJson {
  return {
    name: entry.name,
    product: entry.product,
    environment: entry.environment,
    state: entry.state,
    last_success_at: entry.lastSuccessAt === null ? null : iso(entry.lastSuccessAt),
    last_error: entry.lastError && {
      code: entry.lastError.code,
      message: entry.lastError.message,
      at: iso(entry.lastError.at),
    },
  };
}
