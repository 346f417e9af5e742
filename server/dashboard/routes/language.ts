import { Router } from 'express';
import type { Deps } from '../../domain/context.js';
import { rememberLocale } from '../../i18n/http.js';
import { isLocale } from '../../i18n/translator.js';
import { dashboardPath } from '../i18n.js';

/**
 * The language switch of every page: remembers the choice and goes back to the page it was
 * made on (a path of this dashboard only, never another site).
 */
export function languageRoutes(deps: Deps): Router {
  const router = Router();
  router.get('/language/:locale', (req, res) => {
    const locale = req.params.locale;
    const back = dashboardPath(req.query.back) ?? '/dashboard';
    if (!isLocale(locale)) return res.redirect(303, back);
    rememberLocale(res, locale, req.secure || deps.config.publicUrl.startsWith('https://'));
    res.redirect(303, back);
  });
  return router;
}
