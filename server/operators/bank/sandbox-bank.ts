import type { BankRail, BankTransfer } from '../operator.js';
import { ibanOf, ribKey } from './bank-account.js';
import { writeCamt054 } from './camt054.js';

/** The sandbox's own account at the sandbox bank: the debtor of every test-mode file. */
const debtorRib = '100050000199999999999';

/**
 * The sandbox bank: it takes every file, and its statement for a batch is a pure function of
 * the transfers, like the Mobile Money sandbox's outcomes are of the number:
 *
 * - an account number ending in 1 is closed: the transfer comes back with `AC04`;
 * - one ending in 2 is held by someone else: it comes back with `BE01` (name mismatch);
 * - any other is booked.
 */
export function createSandboxBank(): BankRail {
  const rib = `${debtorRib}${ribKey('10005', '00001', debtorRib.slice(10, 21))}`;
  const debtor = { name: 'Payments API sandbox', iban: ibanOf('CM', rib), bic: null };
  return {
    debtor,
    async submit() {
      return { state: 'accepted' };
    },
    statementFor(batch) {
      return writeCamt054({
        messageId: `SANDBOX-${batch.id}`,
        createdAt: batch.createdAt,
        accountIban: debtor.iban,
        transfers: batch.transfers.map((transfer) => ({
          ...transfer,
          returnReason: sandboxReturn(transfer),
        })),
      });
    },
  };
}

/** The return reason the sandbox bank gives a transfer, or null when it books it. */
function sandboxReturn(transfer: BankTransfer): string | null {
  const accountNumber = transfer.iban.slice(14, 25);
  if (accountNumber.endsWith('1')) return 'AC04';
  if (accountNumber.endsWith('2')) return 'BE01';
  return null;
}
