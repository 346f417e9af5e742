import { Router } from 'express';
import { setTimeZone, timeZones } from '../../domain/accounts.js';
import type { Deps } from '../../domain/context.js';
import { requireOfOwners } from '../../domain/two-step.js';
import type { Mode } from '../../storage/rows.js';
import { refusal, translatorOf } from '../i18n.js';
import { base } from '../views/layout.js';
import { settingsView } from '../views/settings.js';
import { act, bodyOf, render, requirePermission } from './context.js';

/**
 * The account's settings (owners only): the time zone its pages show times in, and whether its
 * owners must sign in with a second step.
 */
export function settingsRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  const back = `${base(mode)}/settings`;

  router.get('/settings', async (req, res) => {
    requirePermission(req, res, 'settings');
    const account = req.dashboard?.account;
    if (!account) throw new Error('signed-in page reached without a session');
    await render(deps, req, res, mode, '/settings', translatorOf(res).t('settings.title'), (ctx) =>
      settingsView(ctx, {
        timeZone: account.time_zone,
        zones: timeZones(),
        ownersNeedTwoStep: account.owners_need_two_step === 1,
      }),
    );
  });

  router.post('/settings/time-zone', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'settings');
      const t = translatorOf(res);
      const zone = bodyOf(req).time_zone ?? '';
      if (!timeZones().includes(zone)) {
        throw refusal(400, 'invalid_field', t.t('settings.timeZoneInvalid'), { param: 'time_zone' });
      }
      await setTimeZone(deps, req.dashboard?.account.id ?? '', zone);
      return t.t('settings.timeZoneSaved', { zone });
    });
  });

  router.post('/settings/two-step', async (req, res) => {
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'settings');
      const signedIn = req.dashboard;
      if (!signedIn) throw new Error('signed-in page reached without a session');
      const t = translatorOf(res);
      const required = bodyOf(req).owners_need_two_step === 'on';
      const result = await requireOfOwners(deps, signedIn, required);
      if (!result.ok) {
        throw refusal(400, 'invalid_field', t.t('settings.twoStepOwnFirst'), {
          param: 'owners_need_two_step',
        });
      }
      return required
        ? t.t('settings.twoStepRequired', { n: result.signedOut })
        : t.t('settings.twoStepOptional');
    });
  });

  return router;
}
