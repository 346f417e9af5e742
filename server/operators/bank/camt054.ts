import { readXml, writeXml } from './xml.js';

/**
 * The bank's debit/credit notification, ISO 20022 `camt.054`: what became of each transfer of
 * a file. Read for every `camt.054.001.0x` (the parts read here are the same in each); the
 * sandbox bank writes `camt.054.001.02`.
 */
const camtNamespace = /^urn:iso:std:iso:20022:tech:xsd:camt\.054\.001\.\d{2}$/;

export interface StatementEntry {
  endToEndId: string;
  /** The transaction's amount as written (major units), or null when it has none. */
  amount: number | null;
  /** Booked (`BOOK`): its outcome is final; otherwise (`PDNG`, `INFO`) it is not yet. */
  booked: boolean;
  /** The return reason code (`AC04`, `BE01`, ...) of a transfer that came back, or null. */
  returnReason: string | null;
}

export interface Statement {
  messageId: string;
  entries: StatementEntry[];
}

type Node = Record<string, unknown>;

const child = (node: unknown, name: string): unknown =>
  node && typeof node === 'object' ? (node as Node)[name] : undefined;

const textOf = (node: unknown): string | undefined => {
  if (typeof node === 'string') return node;
  const text = child(node, '#text');
  return typeof text === 'string' ? text : undefined;
};

const listOf = (node: unknown): unknown[] => (Array.isArray(node) ? node : node === undefined ? [] : [node]);

/** An amount element's value (`<Amt Ccy="XAF">5000</Amt>`), or null. */
function amountOf(node: unknown): number | null {
  const text = textOf(node);
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

/** The entry's status: a code in versions 02 to 07, a `Cd` inside it from version 08. */
function statusOf(entry: unknown): string | undefined {
  const status = child(entry, 'Sts');
  return textOf(status) ?? textOf(child(status, 'Cd'));
}

/** The statement's transactions, each with its entry's status, or null when it is no camt.054. */
export function readCamt054(xml: string): Statement | null {
  const read = readXml(xml);
  if (!read?.namespace || !camtNamespace.test(read.namespace)) return null;
  const document = child(read.tree, 'Document');
  const message = child(document, 'BkToCstmrDbtCdtNtfctn');
  const messageId = textOf(child(child(message, 'GrpHdr'), 'MsgId'));
  if (!messageId) return null;
  const entries: StatementEntry[] = [];
  for (const notification of listOf(child(message, 'Ntfctn'))) {
    for (const entry of listOf(child(notification, 'Ntry'))) {
      const booked = statusOf(entry) === 'BOOK';
      const transactions = listOf(child(entry, 'NtryDtls')).flatMap((details) =>
        listOf(child(details, 'TxDtls')),
      );
      for (const transaction of transactions) {
        const endToEndId = textOf(child(child(transaction, 'Refs'), 'EndToEndId'));
        if (!endToEndId) continue;
        const own = amountOf(child(child(child(transaction, 'AmtDtls'), 'TxAmt'), 'Amt'));
        const rsn = child(child(transaction, 'RtrInf'), 'Rsn');
        const returned = child(transaction, 'RtrInf') !== undefined;
        entries.push({
          endToEndId,
          amount: own ?? (transactions.length === 1 ? amountOf(child(entry, 'Amt')) : null),
          booked,
          returnReason: returned ? (textOf(child(rsn, 'Cd')) ?? textOf(child(rsn, 'Prtry')) ?? 'NARR') : null,
        });
      }
    }
  }
  return { messageId, entries };
}

export interface NotifiedTransfer {
  endToEndId: string;
  amount: number;
  currency: string;
  /** Null when the transfer was booked; the return reason code when it came back. */
  returnReason: string | null;
}

/**
 * A `camt.054.001.02` notifying the debtor's account of each transfer: a booked debit, or a
 * credit returning one with its reason. (Written by the sandbox bank.)
 */
export function writeCamt054(notice: {
  messageId: string;
  createdAt: number;
  accountIban: string;
  transfers: NotifiedTransfer[];
}): string {
  const createdAt = new Date(notice.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const entry = (transfer: NotifiedTransfer) => {
    const amount = { '@_Ccy': transfer.currency, '#text': String(transfer.amount) };
    const returned = transfer.returnReason !== null;
    return {
      Amt: amount,
      CdtDbtInd: returned ? 'CRDT' : 'DBIT',
      Sts: 'BOOK',
      BookgDt: { Dt: createdAt.slice(0, 10) },
      BkTxCd: {
        Domn: { Cd: 'PMNT', Fmly: { Cd: 'ICDT', SubFmlyCd: returned ? 'RRTN' : 'ESCT' } },
      },
      NtryDtls: {
        TxDtls: {
          Refs: { EndToEndId: transfer.endToEndId },
          AmtDtls: { TxAmt: { Amt: amount } },
          ...(returned ? { RtrInf: { Rsn: { Cd: transfer.returnReason } } } : {}),
        },
      },
    };
  };
  return writeXml({
    Document: {
      '@_xmlns': 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.02',
      BkToCstmrDbtCdtNtfctn: {
        GrpHdr: { MsgId: notice.messageId, CreDtTm: createdAt },
        Ntfctn: {
          Id: notice.messageId,
          CreDtTm: createdAt,
          Acct: { Id: { IBAN: notice.accountIban } },
          Ntry: notice.transfers.map(entry),
        },
      },
    },
  });
}
