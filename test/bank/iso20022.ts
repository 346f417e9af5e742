import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const schemas = join(import.meta.dirname, '../fixtures/iso20022');

/**
 * What `xmllint --schema` says of `xml` against ISO 20022's published schema (the XSDs kept in
 * test/fixtures/iso20022/, README there): '' when it validates, its complaints otherwise.
 */
export function schemaErrors(xml: string, schema: 'pain.001.001.03' | 'camt.054.001.02'): string {
  // The message goes in on stdin (`-`): no file of it is left behind.
  try {
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', join(schemas, `${schema}.xsd`), '-'], {
      input: xml,
      stdio: 'pipe',
    });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

/** A camt.054.001.02 with the given transactions, as a bank could send it. */
export function camt054(
  messageId: string,
  entries: Array<{ endToEndId: string; amount: number; status?: string; returnReason?: string }>,
): string {
  const entry = (e: (typeof entries)[number]) => `
      <Ntry>
        <Amt Ccy="XAF">${e.amount}</Amt>
        <CdtDbtInd>${e.returnReason ? 'CRDT' : 'DBIT'}</CdtDbtInd>
        <Sts>${e.status ?? 'BOOK'}</Sts>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>${e.endToEndId}</EndToEndId></Refs>
          ${e.returnReason ? `<RtrInf><Rsn><Cd>${e.returnReason}</Cd></Rsn></RtrInf>` : ''}
        </TxDtls></NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2026-11-28T10:00:00Z</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>${messageId}</Id>
      <CreDtTm>2026-11-28T10:00:00Z</CreDtTm>
      <Acct><Id><IBAN>CM2110005000019999999999984</IBAN></Id></Acct>${entries.map(entry).join('')}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}
