<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * The kind of an event.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `EventName::PaymentCompleted->value`, or read one with
 * `EventName::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum EventName: string
{
    case PaymentCompleted = 'payment.completed';
    case PaymentFailed = 'payment.failed';
    case PaymentExpired = 'payment.expired';
    case PayoutCompleted = 'payout.completed';
    case PayoutFailed = 'payout.failed';
    case RefundCompleted = 'refund.completed';
    case RefundFailed = 'refund.failed';
    case TopupCompleted = 'topup.completed';
    case TopupFailed = 'topup.failed';
    case TopupExpired = 'topup.expired';
}
