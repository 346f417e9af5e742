<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * Why a payment, top-up or payout failed: `payer_declined` (the customer refused or could not
 * pay), `recipient_rejected` (the operator refused the recipient), `operator_timeout` (the
 * operator never answered) or `operator_error`. `null` unless failed.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `FailureCode::PayerDeclined->value`, or read one with
 * `FailureCode::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum FailureCode: string
{
    case PayerDeclined = 'payer_declined';
    case RecipientRejected = 'recipient_rejected';
    case OperatorTimeout = 'operator_timeout';
    case OperatorError = 'operator_error';
}
