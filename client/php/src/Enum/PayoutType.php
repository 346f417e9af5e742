<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `withdrawal` to a Mobile Money number, `transfer` to a number or a wallet, `refund` of a
 * payment.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `PayoutType::Withdrawal->value`, or read one with
 * `PayoutType::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum PayoutType: string
{
    case Withdrawal = 'withdrawal';
    case Transfer = 'transfer';
    case Refund = 'refund';
}
