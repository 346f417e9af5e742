/**
 * The contract's types, generated from `openapi.yaml`. Every file of the client imports them from
 * here, and the package build compiles a copy of `generated/openapi.ts` beside the client, so the
 * published package is self-contained.
 */
export type * from '../../generated/openapi.js';
