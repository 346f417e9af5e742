import { writeXml } from './xml.js';

/**
 * The ISO 20022 customer credit-transfer initiation, `pain.001.001.03`
 * (docs/decisions/0038-pain-001-001-03.md): one payment information block paid from the
 * debtor's account, one transaction per payout, its `EndToEndId` the payout's id, which the
 * bank's statements quote back.
 */
const painNamespace = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';

interface CreditTransfer {
  endToEndId: string;
  /** In the currency's major unit as it is written (whole francs for XAF). */
  amount: number;
  currency: string;
  iban: string;
  holderName: string;
  bic: string | null;
  reference: string | null;
}

export interface Debtor {
  name: string;
  iban: string;
  bic: string | null;
}

export interface CreditTransferFile {
  messageId: string;
  createdAt: number;
  debtor: Debtor;
  transfers: CreditTransfer[];
}

/** A financial institution by its BIC, or by the code ISO 20022 has for "not given". */
function agent(bic: string | null) {
  return { FinInstnId: bic ? { BIC: bic } : { Othr: { Id: 'NOTPROVIDED' } } };
}

function transaction(transfer: CreditTransfer) {
  return {
    PmtId: { EndToEndId: transfer.endToEndId },
    Amt: { InstdAmt: { '@_Ccy': transfer.currency, '#text': String(transfer.amount) } },
    ...(transfer.bic ? { CdtrAgt: agent(transfer.bic) } : {}),
    Cdtr: { Nm: transfer.holderName },
    CdtrAcct: { Id: { IBAN: transfer.iban } },
    ...(transfer.reference ? { RmtInf: { Ustrd: transfer.reference } } : {}),
  };
}

/** The file's XML text: the same text for the same batch, every time. */
export function writePain001(file: CreditTransferFile): string {
  const count = String(file.transfers.length);
  const sum = String(file.transfers.reduce((total, transfer) => total + transfer.amount, 0));
  const createdAt = new Date(file.createdAt).toISOString();
  return writeXml({
    Document: {
      '@_xmlns': painNamespace,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: file.messageId,
          CreDtTm: createdAt.replace(/\.\d{3}Z$/, 'Z'),
          NbOfTxs: count,
          CtrlSum: sum,
          InitgPty: { Nm: file.debtor.name },
        },
        PmtInf: {
          PmtInfId: file.messageId,
          PmtMtd: 'TRF',
          BtchBookg: 'false',
          NbOfTxs: count,
          CtrlSum: sum,
          ReqdExctnDt: createdAt.slice(0, 10),
          Dbtr: { Nm: file.debtor.name },
          DbtrAcct: { Id: { IBAN: file.debtor.iban } },
          DbtrAgt: agent(file.debtor.bic),
          CdtTrfTxInf: file.transfers.map(transaction),
        },
      },
    },
  });
}
