<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * A stable, machine-readable error code (see *Errors* in the introduction).
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `ErrorCode::MissingField->value`, or read one with
 * `ErrorCode::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum ErrorCode: string
{
    case MissingField = 'missing_field';
    case InvalidAmount = 'invalid_amount';
    case InvalidField = 'invalid_field';
    case InvalidMsisdn = 'invalid_msisdn';
    case UnknownField = 'unknown_field';
    case InvalidRecipient = 'invalid_recipient';
    case TooManyItems = 'too_many_items';
    case InvalidParameter = 'invalid_parameter';
    case MalformedJson = 'malformed_json';
    case LiveKeyInTestMode = 'live_key_in_test_mode';
    case MissingApiKey = 'missing_api_key';
    case InvalidApiKey = 'invalid_api_key';
    case MissingApiUser = 'missing_api_user';
    case InvalidApiUser = 'invalid_api_user';
    case InsufficientBalance = 'insufficient_balance';
    case ResourceNotFound = 'resource_not_found';
    case RouteNotFound = 'route_not_found';
    case MethodNotAllowed = 'method_not_allowed';
    case IdempotencyKeyReused = 'idempotency_key_reused';
    case PaymentNotRefundable = 'payment_not_refundable';
    case ServiceDeleted = 'service_deleted';
    case TooManyWebhookEndpoints = 'too_many_webhook_endpoints';
    case PayloadTooLarge = 'payload_too_large';
    case UnsupportedMediaType = 'unsupported_media_type';
    case ServiceNotFound = 'service_not_found';
    case ServiceInactive = 'service_inactive';
    case WalletNotFound = 'wallet_not_found';
    case SelfTransfer = 'self_transfer';
    case RefundExceedsPayment = 'refund_exceeds_payment';
    case UnsupportedNetwork = 'unsupported_network';
    case NetworkMismatch = 'network_mismatch';
    case CurrencyNotAccepted = 'currency_not_accepted';
    case RateLimited = 'rate_limited';
    case InternalError = 'internal_error';
    case ServiceUnavailable = 'service_unavailable';
    case SecretNotReplayed = 'secret_not_replayed';
    case KeyNotActive = 'key_not_active';
    case PermissionDenied = 'permission_denied';
    case TooManyActiveKeys = 'too_many_active_keys';
    case LastActiveKey = 'last_active_key';
    case InvalidText = 'invalid_text';
    case TooManyFailedAuthentications = 'too_many_failed_authentications';
    case HeadersTooLarge = 'headers_too_large';
    case MalformedRequest = 'malformed_request';
    case TooDeeplyNested = 'too_deeply_nested';
    case InvalidIbanCheckDigits = 'invalid_iban_check_digits';
    case InvalidRibKey = 'invalid_rib_key';
    case NothingToBatch = 'nothing_to_batch';
    case InvalidStatement = 'invalid_statement';
}
