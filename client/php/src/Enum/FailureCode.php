<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * Why a payment, top-up or payout failed: `payer_declined` (the customer refused or could not
 * pay), `recipient_rejected` (the operator refused the recipient), `operator_timeout` (the
 * operator never answered) or `operator_error`. `null` unless failed. A bank payout fails with
 * the bank's reason: `bank_account_closed`, `bank_name_mismatch` or `bank_rejected`.
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
    case BankAccountClosed = 'bank_account_closed';
    case BankNameMismatch = 'bank_name_mismatch';
    case BankRejected = 'bank_rejected';
}
