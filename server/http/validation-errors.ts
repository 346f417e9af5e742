import { ApiError, type ApiErrorDetail } from '../domain/errors.js';
import { expectedMsisdnForm } from '../domain/msisdn.js';

/** The shape of express-openapi-validator's errors. */
export interface ValidatorError {
  status: number;
  message: string;
  errors?: Array<{ path: string; message: string; errorCode?: string }>;
}

export function isValidatorError(err: unknown): err is ValidatorError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { status?: unknown }).status === 'number' &&
    Array.isArray((err as { errors?: unknown }).errors)
  );
}

interface Problem {
  location: string;
  param: string;
  keyword: string;
  message: string;
}

/** Header names as the contract spells them; Node hands them over lowercased. */
function headerName(lowered: string): string {
  return lowered
    .split('-')
    .map((part) => (part === 'api' ? 'API' : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('-');
}

/** `/body/items/2/amount` → location `body`, param `items[2].amount`. */
function problemOf(error: { path: string; message: string; errorCode?: string }): Problem {
  const segments = error.path.replace(/^[./]/, '').split(/[./]/).filter(Boolean);
  const location = segments.shift() ?? '';
  let param = '';
  if (location === 'headers') {
    // `idempotency-key` → `Idempotency-Key`: the name an integrator finds in the contract.
    param = headerName(segments.join('.'));
    const message = error.message.replace(/^headers\/\S+ /, '');
    return {
      location,
      param,
      keyword: (error.errorCode ?? '').replace(/\.openapi\.validation$/, ''),
      message,
    };
  }
  for (const segment of segments)
    param += /^\d+$/.test(segment) ? `[${segment}]` : param ? `.${segment}` : segment;
  const keyword = (error.errorCode ?? '').replace(/\.openapi\.validation$/, '');
  return { location, param, keyword, message: error.message };
}

function lastName(param: string): string {
  return (
    param
      .split('.')
      .pop()
      ?.replace(/\[\d+\]$/, '') ?? param
  );
}

/** The seed's rules first: a missing field, then an amount not greater than 0. */
const precedence = [
  'missing_field',
  'unknown_field',
  'invalid_amount',
  'invalid_msisdn',
  'too_many_items',
  'invalid_field',
  'invalid_text',
  // The recipient rule was the domain's, checked once the fields themselves were valid.
  'invalid_recipient',
  'invalid_parameter',
] as const;

const recipientFields = ['recipient_msisdn', 'recipient_wallet_id', 'recipient_bank_account'];
/** A bank account's own `oneOf`: its IBAN, or its RIB with its country. */
const bankAccountFields = ['iban', 'rib', 'country'];
const isBankAccount = (param: string) =>
  param === 'recipient_bank_account' || param.endsWith('.recipient_bank_account');
const childOf = (parent: string, name: string) => (parent ? `${parent}.${name}` : name);

/**
 * The contract states "exactly one recipient" as a `oneOf` of two `required` rules; Ajv reports
 * it as one `oneOf` failure plus each branch's missing field. Together they are one problem,
 * `invalid_recipient`, named as the seed named it (on `recipient_msisdn`).
 */
function mergeRecipientRule(problems: Problem[]): Problem[] {
  const oneOfAt = new Set(problems.filter((p) => p.keyword === 'oneOf').map((p) => p.param));
  if (oneOfAt.size === 0) return problems;
  // The branches' missing fields, looked up by name: a body of many items is not many × many.
  const branchFields = new Set(
    [...oneOfAt].flatMap((at) =>
      (isBankAccount(at) ? bankAccountFields : recipientFields).map((f) => childOf(at, f)),
    ),
  );
  return problems
    .filter((p) => !(p.keyword === 'required' && branchFields.has(p.param)))
    .map((p) => {
      if (p.keyword !== 'oneOf') return p;
      if (isBankAccount(p.param)) return { ...p, keyword: 'bank_account' };
      return { ...p, keyword: 'recipient', param: childOf(p.param, 'recipient_msisdn') };
    });
}

function classify(p: Problem): { code: (typeof precedence)[number]; message: string } {
  if (p.location !== 'body') {
    if (/^Unknown query parameter/.test(p.message)) {
      return { code: 'invalid_parameter', message: `The query parameter ${p.param} is not accepted here.` };
    }
    return {
      code: 'invalid_parameter',
      message: p.param ? `The parameter ${p.param} ${p.message}.` : `The request ${p.message}.`,
    };
  }
  if (p.keyword === 'recipient') {
    return {
      code: 'invalid_recipient',
      message:
        'A payout needs exactly one of recipient_msisdn, recipient_wallet_id or recipient_bank_account.',
    };
  }
  if (p.keyword === 'bank_account') {
    return {
      code: 'invalid_recipient',
      message: 'A bank account is given by its iban, or by its rib with its country (not both).',
    };
  }
  if (p.keyword === 'required') {
    return p.param
      ? {
          code: 'missing_field',
          message:
            lastName(p.param) === 'service_id'
              ? 'The field service_id is required: every payment names a service. Create one with POST /services and pass its service_id.'
              : `The field ${p.param} is required.`,
        }
      : { code: 'missing_field', message: 'A JSON request body is required.' };
  }
  if (p.keyword === 'additionalProperties') {
    return { code: 'unknown_field', message: `The field ${p.param} is not accepted here.` };
  }
  const name = lastName(p.param);
  if (name === 'amount') {
    if (p.keyword === 'minimum')
      return { code: 'invalid_amount', message: 'The amount must be greater than 0.' };
    if (p.keyword === 'maximum')
      return { code: 'invalid_amount', message: 'The amount must be at most 1000000000.' };
    return {
      code: 'invalid_amount',
      message: "The amount must be an integer number of the currency's minor unit, greater than 0.",
    };
  }
  if (name.endsWith('msisdn')) {
    return {
      code: 'invalid_msisdn',
      message: `The field ${p.param} is not a usable phone number: ${expectedMsisdnForm}.`,
    };
  }
  if (p.param === 'items' && p.keyword === 'maxItems') {
    return { code: 'too_many_items', message: `A bulk payout ${p.message}.` };
  }
  return {
    code: 'invalid_field',
    message: p.param ? `The field ${p.param} ${p.message}.` : `The request body ${p.message}.`,
  };
}

const locations = new Set(['body', 'query', 'headers', 'params']);

/**
 * A request's problems as one ApiError: every problem in `details`, the most important first by
 * the seed's precedence (a stable sort: otherwise in the order found), repeated at the top.
 */
export function problemsError(problems: ApiErrorDetail[]): ApiError {
  const rank = (code: ApiErrorDetail['code']) => {
    const at = precedence.indexOf(code as (typeof precedence)[number]);
    return at === -1 ? precedence.length : at;
  };
  const details = [...problems].sort((a, b) => rank(a.code) - rank(b.code));
  const first = details[0] as ApiErrorDetail;
  return new ApiError(400, first.code ?? 'invalid_field', first.message, {
    // A problem of the whole body or query names no field at the top.
    param: locations.has(first.param) ? undefined : first.param,
    details: details.length > 1 ? details : undefined,
  });
}

/**
 * A validator rejection of a request, as one ApiError with every problem in `details`, the
 * body's text problems (`textProblems`, found before the validator ran) among them.
 */
export function requestValidationError(err: ValidatorError, textProblems: ApiErrorDetail[] = []): ApiError {
  const problems = mergeRecipientRule((err.errors ?? []).map(problemOf));
  const found: ApiErrorDetail[] = problems.map((p) => ({ param: p.param || p.location, ...classify(p) }));
  const all = [...found, ...textProblems];
  if (all.length === 0) return new ApiError(400, 'invalid_field', err.message);
  return problemsError(all);
}
