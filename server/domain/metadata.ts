import type { Metadata } from '../../generated/openapi.js';

/**
 * A create's metadata as its row stores it: the object as JSON text, or null when none was
 * given or it was empty (answered as `{}` either way: representations.ts). The contract has
 * bounded it already (50 keys, values strings of at most 500 characters) and the request's
 * body check its keys (40 characters: server/http/text-fields.ts); it is stored as given, in the
 * order given, and never changed afterwards (docs/decisions/0040-metadata-and-reference-filters.md).
 */
export function storedMetadata(metadata: Metadata | undefined): string | null {
  if (metadata === undefined) return null;
  for (const _ in metadata) return JSON.stringify(metadata);
  return null;
}

/** Stored metadata as the contract shows it, in responses and events: `{}` when none was given. */
export function metadataOf(stored: string | null): Metadata {
  return stored === null ? {} : (JSON.parse(stored) as Metadata);
}
