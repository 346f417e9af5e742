import { type Request, type Response, Router } from 'express';
import type { Deps } from '../../domain/context.js';
import {
  answerChallenge,
  type ChallengeAction,
  type ChallengeOutcome,
  findChallenge,
  pageChallenge,
  twoStepStatus,
} from '../../domain/two-step.js';
import type { Mode } from '../../storage/rows.js';
import { translatorOf } from '../i18n.js';
import { base } from '../views/layout.js';
import { type TwoStepState, twoStepView } from '../views/two-step.js';
import { act, bodyOf, render } from './context.js';

/** What a refused code says on the page, and its status. */
const refusals = {
  wrong: { status: 400, message: 'twoStep.wrong' },
  locked: { status: 429, message: 'twoStep.locked' },
  spent: { status: 400, message: 'twoStep.spent' },
  required: { status: 409, message: 'twoStep.requiredNote' },
} as const;

/**
 * The signed-in user's own two-step sign-in, whatever their role: turn it on by confirming a
 * code of the secret shown, get new recovery codes, turn it off (not an owner whose account
 * requires it). Each form answers the challenge its page was given.
 */
export function twoStepRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();

  /** The page, with a fresh challenge unless the refused one is still open. */
  const show = async (
    req: Request,
    res: Response,
    extra: Pick<TwoStepState, 'error' | 'newCodes'> & { challenge?: string } = {},
    status = 200,
  ) => {
    const signedIn = req.dashboard;
    if (!signedIn) throw new Error('signed-in page reached without a session');
    const stored = await twoStepStatus(deps, signedIn.user.id);
    if (!stored) throw new Error('signed-in user not found');
    const { user, codesLeft } = stored;
    // The refused form's challenge, while open and this user's (another's never shows its key).
    const kept = extra.challenge ? await findChallenge(deps, extra.challenge) : undefined;
    const wanted = user.totp_enabled_at === null ? 'enrol' : 'code';
    const fresh =
      kept?.challenge.kind === wanted && kept.user.id === user.id
        ? { challenge: extra.challenge as string, secret: kept.challenge.pending_secret }
        : await pageChallenge(deps, user);
    const state: TwoStepState = {
      challenge: fresh.challenge,
      ...(fresh.secret ? { secret: fresh.secret } : {}),
      enabled: user.totp_enabled_at !== null,
      codesLeft,
      required: user.role === 'owner' && signedIn.account.owners_need_two_step === 1,
      ...(extra.error ? { error: extra.error } : {}),
      ...(extra.newCodes ? { newCodes: extra.newCodes } : {}),
    };
    res.set('Cache-Control', 'no-store');
    await render(
      deps,
      req,
      res,
      mode,
      '/two-step',
      translatorOf(res).t('twoStep.title'),
      (ctx) => twoStepView(ctx, state),
      status,
    );
  };

  router.get('/two-step', (req, res) => show(req, res));

  /** Answers the page's challenge; a refusal shows the page again with why. */
  const answerWith = async (req: Request, res: Response, action: ChallengeAction) => {
    const body = bodyOf(req);
    const result: ChallengeOutcome = await answerChallenge(deps, {
      token: body.challenge ?? '',
      code: body.code ?? '',
      action,
      ...(req.dashboard ? { signedIn: req.dashboard } : {}),
    });
    if (result.ok) return result;
    const { status, message } = refusals[result.problem];
    await show(req, res, { error: translatorOf(res).t(message), challenge: body.challenge ?? '' }, status);
    return undefined;
  };

  router.post('/two-step/enable', async (req, res) => {
    const done = await answerWith(req, res, 'enrol');
    if (done) await show(req, res, { newCodes: done.recoveryCodes ?? [] });
  });

  router.post('/two-step/recovery-codes', async (req, res) => {
    const done = await answerWith(req, res, 'recovery-codes');
    if (done) await show(req, res, { newCodes: done.recoveryCodes ?? [] });
  });

  router.post('/two-step/disable', (req, res) =>
    act(deps, req, res, `${base(mode)}/two-step`, async () =>
      (await answerWith(req, res, 'disable')) ? translatorOf(res).t('twoStep.offDone') : undefined,
    ),
  );

  return router;
}
