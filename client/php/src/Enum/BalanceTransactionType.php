<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `payment` and `topup` (credits when they succeed), `payout` (a debit when a payout or refund
 * is accepted), `payout_reversal` (a credit when it fails), `transfer_in` (a credit from
 * another user's wallet transfer).
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `BalanceTransactionType::Payment->value`, or read one with
 * `BalanceTransactionType::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum BalanceTransactionType: string
{
    case Payment = 'payment';
    case Topup = 'topup';
    case Payout = 'payout';
    case PayoutReversal = 'payout_reversal';
    case TransferIn = 'transfer_in';
}
