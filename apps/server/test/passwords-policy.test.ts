/**
 * Issue 11 §6 "Passwords": at least 12 characters and not a common password, for
 * every account, on creation and on change; the estimator is a maintained library.
 */
import { describe, expect, it } from 'vitest';
import { USER_MESSAGES } from '@sesame/shared';
import { passwordProblem } from '../src/auth/password-policy';
import { loadConfig } from '../src/config';
import { as, tokenFor, useTestApp } from './helpers/app';
import { buildTenant } from './helpers/factories';

describe('password policy', () => {
  it('refuses short, common and personal passwords; accepts a strong one', () => {
    expect(passwordProblem('Court-1')).toBe('passwordTooShort');
    for (const common of ['password1234', 'azertyuiop123', '123456789012', 'motdepasse123'])
      expect(passwordProblem(common), common).toBe('passwordWeak');
    expect(passwordProblem('Un-mot-de-passe-solide-42')).toBeNull();
  });

  it('holds ADMIN_PASSWORD to the same rule at start', () => {
    const env = { DATA_DIR: '/tmp/sesame-config-test', JWT_SECRET: 'x'.repeat(40) };
    expect(() => loadConfig({ ...env, ADMIN_PASSWORD: 'password1234' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ ...env, ADMIN_PASSWORD: 'Court-1' })).toThrow(/ADMIN_PASSWORD/);
    expect(loadConfig({ ...env, ADMIN_PASSWORD: 'Un-mot-de-passe-solide-42' }).adminPassword).toBe(
      'Un-mot-de-passe-solide-42',
    );
  });

  describe('on the user routes', () => {
    const ctx = useTestApp();

    it('creation and change refuse a common password with the message, and store nothing', async () => {
      const { company, staff } = await buildTenant(ctx.db);
      const admin = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_ADMIN.email));
      const fields = {
        name: 'Diallo',
        firstname: 'Moussa',
        email: 'moussa@acme.test',
        password: 'password1234',
        title: 'Accueil',
        contact: '0102030405',
        role: 'ROLE_EMPLOYEE',
        company_id: company.id,
      };
      const weak = await admin({ method: 'POST', url: '/api/user/create', payload: fields });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toEqual({
        message: USER_MESSAGES.passwordWeak,
        errors: { password: USER_MESSAGES.passwordWeak },
      });
      const strong = await admin({
        method: 'POST',
        url: '/api/user/create',
        payload: { ...fields, password: 'Un-mot-de-passe-solide-42' },
      });
      expect(strong.statusCode).toBe(201);
      const id = strong.json().data.id as string;
      const change = await admin({
        method: 'PUT',
        url: `/api/user/${id}`,
        payload: { ...fields, password: 'azertyuiop123' },
      });
      expect(change.statusCode).toBe(400);
      expect(change.json().message).toBe(USER_MESSAGES.passwordWeak);
      // The old password still signs in: nothing changed.
      await expect(
        tokenFor(ctx.app, fields.email, 'Un-mot-de-passe-solide-42'),
      ).resolves.toBeTruthy();
    });
  });
});
