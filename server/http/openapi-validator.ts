import type { Request } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiRequestMetadata } from 'express-openapi-validator/dist/framework/types.js';
import { contractCheckedByBuild, contractDocument } from './contract.js';

/**
 * What the validator matched for `req`: the contract's route (`/v1/payments/{id}`), the decoded
 * path params and the operation. Undefined before the validator ran, or when no route matched.
 */
export function contractMatch(req: Request): OpenApiRequestMetadata | undefined {
  return (req as Request & { openapi?: OpenApiRequestMetadata }).openapi;
}

/**
 * The contract without its examples. Examples are documentation; left in, the validator's Ajv
 * (draft-04 for OpenAPI 3.0) reads their `id` fields as schema ids and refuses duplicates.
 */
function contractWithoutExamples(): object {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== 'example' && key !== 'examples')
        .map(([key, value]) => [key, strip(value)]),
    );
  };
  return strip(contractDocument()) as object;
}

type ContractValidator = ReturnType<typeof OpenApiValidator.middleware>;
/** Built once per process for each setting, and shared by every app the process starts. */
const built = new Map<boolean, ContractValidator>();

/**
 * Validates every request against openapi.yaml, and every response too when
 * `validateResponses` is on (development and tests): a response that breaks the contract fails
 * loudly here instead of reaching an integrator. Authentication is ours (authenticate.ts), so
 * the validator's security check is off.
 *
 * Building it dereferences the contract and compiles its schemas with Ajv: about 0.2 CPU-s, paid
 * once per process. The middleware keeps nothing of an app or a request between calls (only its
 * compiled schemas and route table, which depend on the contract alone), so the apps of one
 * process share it: a test process starts hundreds of servers (test/support/server.ts).
 */
export function contractValidator(options: { validateResponses: boolean }): ContractValidator {
  let validator = built.get(options.validateResponses);
  if (!validator) {
    validator = build(options.validateResponses);
    built.set(options.validateResponses, validator);
  }
  return validator;
}

function build(validateResponses: boolean): ContractValidator {
  return OpenApiValidator.middleware({
    // biome-ignore lint/suspicious/noExplicitAny: the validator types its spec as a full OpenAPI document
    apiSpec: contractWithoutExamples() as any,
    // The contract against the OpenAPI schema: checked by the build when the contract is its
    // copy (scripts/build.mjs), here otherwise. The check and its compiled schema cost 0.25
    // CPU-s of every start (patches/express-openapi-validator+5.6.2.patch compiles the schema
    // only when a document is checked).
    validateApiSpec: !contractCheckedByBuild(),
    // allErrors: every problem of a request is reported in error.details, not only the first.
    // The schemas are ours (trusted) and bodies are bounded (64 KiB, 100 bulk items).
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses,
    validateSecurity: false,
    validateFormats: true,
    // Full format checks: 2026-02-30 is not a date, and must not become the 2nd of March.
    ajvFormats: { mode: 'full' },
    ignoreUndocumented: false,
    // The contract has no multipart body; jsonBody answers 415 for any other media type before
    // the validator runs. Off, the validator has one middleware less on every request.
    fileUploader: false,
  });
}
