<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The bank account a payout goes to (a RIB given with its country is shown as its IBAN), or
 * `null` for a payout to a number or a wallet.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BankAccount
{
    public function __construct(
        /** @var string The IBAN. */
        public readonly string $iban,
        /** @var string The account holder's name. */
        public readonly string $holder_name,
        /** @var string|null The bank's BIC, or `null`. */
        public readonly ?string $bic,
        /** @var string The RIB's bank code (5 characters). */
        public readonly string $bank_code,
        /** @var string The RIB's branch code (5 characters). */
        public readonly string $branch_code,
        /** @var string The RIB's account number (11 characters). */
        public readonly string $account_number,
    ) {
    }

    /**
     * Builds the model from the API's JSON, decoded as an associative array. Fields the contract
     * does not (yet) know are ignored.
     *
     * @param array<string, mixed> $data
     */
    public static function fromArray(array $data): self
    {
        return new self(
            iban: $data['iban'],
            holder_name: $data['holder_name'],
            bic: $data['bic'] ?? null,
            bank_code: $data['bank_code'],
            branch_code: $data['branch_code'],
            account_number: $data['account_number'],
        );
    }
}
