import { Router } from 'express';
import type { Deps } from '../../domain/context.js';
import { inviteUser, listUsers } from '../../domain/dashboard-users.js';
import type { Mode } from '../../storage/rows.js';
import { translatorOf } from '../i18n.js';
import { usersView } from '../views/auth.js';
import { base } from '../views/layout.js';
import { act, bodyOf, render, requirePermission } from './context.js';

/** The account's dashboard users, and invitations by link (owners only). */
export function userRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();

  router.get('/users', async (req, res) => {
    requirePermission(req, res, 'users');
    const users = await listUsers(deps, req.dashboard?.account.id ?? '');
    await render(deps, req, res, mode, '/users', translatorOf(res).t('users.title'), (ctx) =>
      usersView(ctx, users, deps.config.publicUrl),
    );
  });

  router.post('/users/invite', async (req, res) => {
    await act(deps, req, res, `${base(mode)}/users`, async () => {
      requirePermission(req, res, 'users');
      const signedIn = req.dashboard;
      if (!signedIn) throw new Error('signed-in page reached without a session');
      const body = bodyOf(req);
      const { user, linkToken } = await inviteUser(deps, signedIn.user, {
        email: body.email ?? '',
        role: body.role ?? '',
      });
      const users = await listUsers(deps, signedIn.account.id);
      res.set('Cache-Control', 'no-store');
      await render(deps, req, res, mode, '/users', translatorOf(res).t('users.title'), (ctx) =>
        usersView(ctx, users, deps.config.publicUrl, { email: user.email, token: linkToken ?? '' }),
      );
      return undefined;
    });
  });

  return router;
}
