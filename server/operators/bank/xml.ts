import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * ISO 20022 XML in and out, with fast-xml-parser: a document is a plain object whose keys are
 * its elements in schema order, `@_name` an attribute and `#text` an element's text beside one.
 */
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
});

/** The document as UTF-8 XML text with its declaration; text is escaped by the builder. */
export function writeXml(document: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(document)}`;
}

/** The elements that may repeat in the messages read here: always arrays, even of one. */
const repeated = new Set(['Ntfctn', 'Ntry', 'NtryDtls', 'TxDtls']);

const options = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Every value stays text: an end-to-end id of digits must not become a number.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name: string) => repeated.has(name),
};
/** Elements by their local names (`ns2:Ntry` is `Ntry`), which drops the namespace declarations. */
const parser = new XMLParser({ ...options, removeNSPrefix: true });
/** Elements as written, for the root's namespace declaration. */
const prefixedParser = new XMLParser({ ...options, removeNSPrefix: false });

/** A document read: its elements by local name, and the namespace of its root `Document`. */
export interface ReadXml {
  tree: Record<string, unknown>;
  namespace: string | undefined;
}

/** The namespace of the root element named `Document`, whatever its prefix. */
function documentNamespace(text: string): string | undefined {
  const parsed = prefixedParser.parse(text) as Record<string, unknown>;
  for (const [name, element] of Object.entries(parsed)) {
    const match = /^(?:(\w[\w.-]*):)?Document$/.exec(name);
    if (!match || !element || typeof element !== 'object') continue;
    const declaration = (element as Record<string, unknown>)[match[1] ? `@_xmlns:${match[1]}` : '@_xmlns'];
    return typeof declaration === 'string' ? declaration : undefined;
  }
  return undefined;
}

/**
 * The parsed document, or null when it is not well-formed XML or declares a DOCTYPE (no
 * entity of a statement is ever expanded: a bank's message has none).
 */
export function readXml(text: string): ReadXml | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null;
  try {
    if (XMLValidator.validate(text) !== true) return null;
    const tree: unknown = parser.parse(text);
    if (!tree || typeof tree !== 'object') return null;
    return { tree: tree as Record<string, unknown>, namespace: documentNamespace(text) };
  } catch {
    return null;
  }
}
