// Pieces the interaction pages share: where their forms post, what each page knows.
import { html, type SafeHtml } from '../../platform/pages/html.js';
import { interactionPath } from '../protocol/authorization.js';

/** The form actions of an interaction; all on our own host (CSP form-action 'self'). */
export const actions = (token: string) => {
  const base = interactionPath(token);
  return {
    page: base,
    signinForm: `${base}?form=signin`,
    signupForm: `${base}?form=signup`,
    password: `${base}/password`,
    sendCode: `${base}/code/send`,
    code: `${base}/code`,
    sendSignupCode: `${base}/signup/send`,
    signup: `${base}/signup`,
    choose: `${base}/choose`,
    consent: `${base}/consent`,
  };
};

/** What every interaction page knows: its token, the CSRF token, the app, and an error to show. */
export interface PageContext {
  token: string;
  csrf: string;
  appName: string;
  error: string | null;
}

export const continueTo = (appName: string): SafeHtml => html`<p class="note">to continue to <strong>${appName}</strong></p>`;
