import type { ApiPermission } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { Logger } from '../observability/logger.js';
import type { BankRail, MobileMoneyOperator } from '../operators/operator.js';
import type { OperatorHealth } from '../operators/operator-health.js';
import type { KeyRole, Mode } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import type { ResolveHost } from '../webhooks/url-policy.js';
import type { Clock } from './clock.js';

/** What every domain function may use: storage, time, the operators and the settings. */
export interface Deps {
  store: Store;
  clock: Clock;
  /** The operator adapter of each mode: the sandbox simulator never touches live money. */
  operators: Record<Mode, MobileMoneyOperator>;
  /** The bank of each mode for bank payouts: the sandbox bank, and none in live until one is connected. */
  banks: Record<Mode, BankRail | null>;
  /** Whether this instance reaches each live operator product (GET /v1/healthz, the dashboard). */
  operatorHealth: OperatorHealth;
  config: Config;
  logger: Logger;
  /** How webhook hosts are resolved; tests inject one (default: the system resolver). */
  resolveHost?: ResolveHost;
}

/** Who is calling: the account and mode their key grants, resolved by authentication. */
export interface Caller {
  accountId: string;
  mode: Mode;
  keyId: string;
  walletId: string;
  defaultCurrency: string;
  /** The key's role (docs/decisions/0030-key-roles.md); `full` for a dashboard user. */
  role: KeyRole;
  /** What the key's role grants (server/domain/key-roles.ts); a dashboard user acts with every permission, limited by their own role. */
  permissions: readonly ApiPermission[];
}
