/**
 * The form layer's React half (lib/use-schema-form.ts over lib/form-state.ts), as every form
 * uses it: Mantine inputs taking `form.getInputProps(field)`, a shared schema (the server's
 * own, here the login's) checking the values on submit. What a person sees: the values they
 * typed, each field's message in the product's words (French, and English once switched),
 * the server's field errors under their fields, one request however fast they click, and a
 * reset that forgets everything.
 */
import { Button, PasswordInput, TextInput } from '@mantine/core';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginSchema, type LoginInput } from '@sesame/shared';
import i18n, { withFrenchWords } from '../src/lib/i18n';
import { useSchemaForm, type SchemaFormOptions } from '../src/lib/use-schema-form';
import auth from '../src/locales/fr/auth.json';
import { renderInApp } from './setup/render';

type Values = { username: string; password: string };
type Submit = SchemaFormOptions<Values, LoginInput>['onSubmit'];

/** The login's form, reduced to what the layer does (the page adds its links and layout). */
function LoginForm({ onSubmit }: { onSubmit: Submit }) {
  const { form, submit, summary, busy } = useSchemaForm(loginSchema, {
    initialValues: { username: '', password: '' },
    ns: 'auth',
    keys: { errors: 'errors' },
    onSubmit,
  });
  return (
    <form onSubmit={submit} noValidate aria-label="login">
      {summary && <div role="alert">{summary}</div>}
      <TextInput label="Email" {...form.getInputProps('username')} />
      <PasswordInput label="Mot de passe" {...form.getInputProps('password')} />
      <Button type="submit" loading={busy}>
        Se connecter
      </Button>
      <Button type="button" variant="default" onClick={form.reset}>
        Effacer
      </Button>
    </form>
  );
}

const email = () => screen.getByLabelText('Email');
const password = () => screen.getByLabelText('Mot de passe');
/** The message Mantine shows under a field (the input names it as its description). */
const errorOf = (input: HTMLElement) => {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const texts = ids.map((id) => document.getElementById(id)?.textContent ?? '');
  return texts.find((text) => text !== '') ?? null;
};

function setup(onSubmit: Submit = vi.fn()) {
  const user = userEvent.setup();
  renderInApp(<LoginForm onSubmit={onSubmit} />);
  return { user, onSubmit };
}

beforeAll(() => {
  // The login page's module brings its words so (lib/i18n).
  withFrenchWords({ auth });
});

afterEach(async () => {
  if (i18n.language !== 'fr') await act(() => i18n.changeLanguage('fr'));
});

describe('the form layer (useSchemaForm)', () => {
  it('keeps what is typed and hands the schema’s parsed data to onSubmit', async () => {
    const onSubmit = vi.fn<Submit>();
    const { user } = setup(onSubmit);
    await user.type(email(), '  ana@example.com ');
    await user.type(password(), 'secret');
    expect(email()).toHaveProperty('value', '  ana@example.com ');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    // The schema's output (trimmed), then the values as typed.
    expect(onSubmit).toHaveBeenCalledWith(
      { username: 'ana@example.com', password: 'secret' },
      { username: '  ana@example.com ', password: 'secret' },
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses an invalid submit with the shared schema’s words under each field, and the first in a banner with the focus', async () => {
    const onSubmit = vi.fn<Submit>();
    const { user } = setup(onSubmit);
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(errorOf(email())).toBe("L'adresse email est requise.");
    expect(errorOf(password())).toBe('Le mot de passe est requis.');
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe("L'adresse email est requise.");
    expect(document.activeElement).toBe(email());

    // A change clears that field's message and the banner; the other stays.
    await user.type(email(), 'nope');
    expect(errorOf(email())).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(errorOf(password())).toBe('Le mot de passe est requis.');

    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(errorOf(email())).toBe('Veuillez saisir une adresse email valide.');
  });

  it('speaks English once the screen is in English', async () => {
    const { user } = setup();
    await act(() => i18n.changeLanguage('en'));
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(errorOf(email())).toBe('The e-mail address is required.');
    expect(errorOf(password())).toBe('The password is required.');
  });

  it('shows the server’s field errors under their fields and moves the focus to the first', async () => {
    const onSubmit = vi.fn<Submit>(() =>
      Promise.resolve({ password: 'Ce mot de passe a expiré.' }),
    );
    const { user } = setup(onSubmit);
    await user.type(email(), 'ana@example.com');
    await user.type(password(), 'secret');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(errorOf(password())).toBe('Ce mot de passe a expiré.');
    expect(errorOf(email())).toBeNull();
    expect(document.activeElement).toBe(password());
    // The server's answer has no banner of its own unless the screen gives one.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toHaveProperty('disabled', false);
  });

  it('sends once for two submits before React renders again, busy meanwhile, and again once done', async () => {
    let answer!: () => void;
    const onSubmit = vi.fn<Submit>(
      () =>
        new Promise<undefined>((resolve) => {
          answer = () => resolve(undefined);
        }),
    );
    const { user } = setup(onSubmit);
    await user.type(email(), 'ana@example.com');
    await user.type(password(), 'secret');
    const form = screen.getByRole('form', { name: 'login' });
    // Both in one event loop turn: the second is refused by the hook, not by a disabled button.
    act(() => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    await act(async () => {});
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const button = screen.getByRole('button', { name: 'Se connecter' });
    expect(button).toHaveProperty('disabled', true);
    // A double click on the busy button sends nothing more either.
    fireEvent.submit(form);
    await act(async () => {});
    expect(onSubmit).toHaveBeenCalledTimes(1);

    await act(async () => answer());
    expect(button).toHaveProperty('disabled', false);
    await user.click(button);
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it('resets to the initial values without any message', async () => {
    const onSubmit = vi.fn<Submit>();
    const { user } = setup(onSubmit);
    await user.type(email(), 'nope');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(errorOf(email())).toBe('Veuillez saisir une adresse email valide.');
    await user.click(screen.getByRole('button', { name: 'Effacer' }));
    expect(email()).toHaveProperty('value', '');
    expect(password()).toHaveProperty('value', '');
    expect(errorOf(email())).toBeNull();
    expect(errorOf(password())).toBeNull();
    // The values read at submit are the reset ones too (not the ones typed before).
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(errorOf(email())).toBe("L'adresse email est requise.");
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
