import { Router } from 'express';
import type { Deps } from '../../domain/context.js';
import { listAccountKeys, revokeKeyById, rotateKeyById } from '../../domain/dashboard-keys.js';
import type { Mode } from '../../storage/rows.js';
import { translatorOf } from '../i18n.js';
import { keysView } from '../views/keys.js';
import { base } from '../views/layout.js';
import { act, bodyOf, callerOf, render, requirePermission } from './context.js';

/** API keys: list, rotate with a grace period (the new secret shown once), revoke; the API user. */
export function keyRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  const back = `${base(mode)}/keys`;

  router.get('/keys', async (req, res) => {
    const keys = await listAccountKeys(deps, await callerOf(deps, req, mode));
    const apiUser = req.dashboard?.account.api_user ?? '';
    await render(deps, req, res, mode, '/keys', translatorOf(res).t('keys.title'), (ctx) =>
      keysView(ctx, apiUser, keys, deps.clock.now()),
    );
  });

  router.post('/keys/:id/rotate', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'keys');
      const caller = await callerOf(deps, req, mode);
      const grace = Number(bodyOf(req).grace_period_seconds ?? '0');
      const rotation = await rotateKeyById(deps, caller, req.params.id as string, grace);
      const keys = await listAccountKeys(deps, caller);
      const apiUser = req.dashboard?.account.api_user ?? '';
      // Rendered, not redirected: the secret must not be stored anywhere to show it later.
      res.set('Cache-Control', 'no-store');
      await render(deps, req, res, mode, '/keys', translatorOf(res).t('keys.rotatedTitle'), (ctx) =>
        keysView(ctx, apiUser, keys, deps.clock.now(), {
          secret: rotation.secretKey,
          previous: rotation.previousKey,
        }),
      );
      return undefined;
    });
  });

  router.post('/keys/:id/revoke', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'keys');
      const key = await revokeKeyById(deps, await callerOf(deps, req, mode), req.params.id as string);
      return translatorOf(res).t('keys.revoked', { last4: key.last4 });
    });
  });

  return router;
}
