/**
 * Parses a key-encryption key: 32 bytes as 64 hex characters or as base64. The configuration
 * reads SECRETS_ENCRYPTION_KEY with it, and the storage the key file development keeps beside
 * its database (server/storage/secret-box.ts).
 */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed, 'base64');
    return bytes.length === 32 ? bytes : undefined;
  }
  return undefined;
}
