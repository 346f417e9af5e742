import { type Request, type Response, Router } from 'express';
import type { Deps } from '../../domain/context.js';
import {
  createAccountKey,
  keyRolesFor,
  listAccountKeys,
  revokeKeyById,
  rotateKeyById,
} from '../../domain/dashboard-keys.js';
import type { ApiKeyRow, Mode } from '../../storage/rows.js';
import { translatorOf } from '../i18n.js';
import { keysView } from '../views/keys.js';
import { base } from '../views/layout.js';
import { act, bodyOf, callerOf, render, requirePermission, roleOf } from './context.js';

/**
 * API keys: list, create with a role, rotate with a grace period (the new secret shown once),
 * revoke; the API user. Only the keys the user's role reaches (server/domain/dashboard-keys.ts).
 */
export function keyRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  const back = `${base(mode)}/keys`;

  /** The page, with a new secret shown once: rendered, not redirected, so it is stored nowhere. */
  const keysPage = async (
    req: Request,
    res: Response,
    created?: { secret: string; previous?: ApiKeyRow },
  ) => {
    const role = roleOf(req);
    const keys = await listAccountKeys(deps, await callerOf(deps, req, mode), role);
    const apiUser = req.dashboard?.account.api_user ?? '';
    if (created) res.set('Cache-Control', 'no-store');
    await render(
      deps,
      req,
      res,
      mode,
      '/keys',
      translatorOf(res).t(created ? 'keys.createdTitle' : 'keys.title'),
      (ctx) => keysView(ctx, apiUser, keys, deps.clock.now(), keyRolesFor(role), created),
    );
  };

  router.get('/keys', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'keys');
      await keysPage(req, res);
      return undefined;
    });
  });

  router.post('/keys', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'keys');
      const caller = await callerOf(deps, req, mode);
      const creation = await createAccountKey(deps, caller, roleOf(req), bodyOf(req).role ?? '');
      await keysPage(req, res, { secret: creation.secretKey });
      return undefined;
    });
  });

  router.post('/keys/:id/rotate', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'keys');
      const caller = await callerOf(deps, req, mode);
      const grace = Number(bodyOf(req).grace_period_seconds ?? '0');
      const rotation = await rotateKeyById(deps, caller, roleOf(req), req.params.id as string, grace);
      await keysPage(req, res, { secret: rotation.secretKey, previous: rotation.previousKey });
      return undefined;
    });
  });

  router.post('/keys/:id/revoke', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'keys');
      const caller = await callerOf(deps, req, mode);
      const key = await revokeKeyById(deps, caller, roleOf(req), req.params.id as string);
      return translatorOf(res).t('keys.revoked', { last4: key.last4 });
    });
  });

  return router;
}
