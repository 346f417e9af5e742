<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * The operator to send a payout to a number through. Optional: by default the payout goes to
 * the network the number belongs to (by its prefix; Cameroon: 67x and 650-654 MTN, 69x and
 * 655-659 Orange). Not allowed with `recipient_wallet_id`.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `PayoutPaymentMethod::MtnMomo->value`, or read one with
 * `PayoutPaymentMethod::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum PayoutPaymentMethod: string
{
    case MtnMomo = 'mtn_momo';
    case OrangeMoney = 'orange_money';
}
