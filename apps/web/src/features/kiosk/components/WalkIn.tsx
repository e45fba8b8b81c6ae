/**
 * "Je n'ai pas de rendez-vous" (issue 29): who the visitor is, then whom they visit and why
 * with the privacy notice, then their photo when the kiosk asks for one — each step ends on
 * "Continuer", and the last one sends the request (the host is told at once). What is typed
 * lives in this component's state only: the idle reset or the end of the visit discards it.
 */
import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { EMAIL_PATTERN, type KioskConfig } from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { interfaceLanguage } from '../../../lib/language';
import { PrivacyNotice } from '../../../components/visitor-form/PrivacyNotice';
import { kioskApi, KioskApiError, statusOf } from '../api';
import { HostPicker, type ChosenHost } from './HostPicker';

import { PhotoStep } from './PhotoStep';

type Step = 'identity' | 'visit' | 'photo';
type Field =
  | 'firstname'
  | 'lastname'
  | 'organisation_name'
  | 'email'
  | 'contact'
  | 'host_user_id'
  | 'reason'
  | 'privacy_accepted'
  | 'photo';

const STEP_OF: Record<Field, Step> = {
  firstname: 'identity',
  lastname: 'identity',
  organisation_name: 'identity',
  email: 'identity',
  contact: 'identity',
  host_user_id: 'visit',
  reason: 'visit',
  privacy_accepted: 'visit',
  photo: 'photo',
};

/** The first of the fields named, once the screen shows its error: the visitor fixes it. */
function focusFirst(names: string[]) {
  if (!names.length) return;
  window.setTimeout(() => {
    const first = names
      .map((name) => document.querySelector<HTMLElement>(`[name="${name}"]`))
      .find((element) => element !== null);
    first?.focus();
  });
}

export function WalkIn({
  config,
  online,
  onSent,
}: {
  config: KioskConfig;
  online: boolean;
  onSent: (sent: { request_id: string; told: string | null }) => void;
}) {
  const { t } = useTranslation('kiosk');
  const [step, setStep] = useState<Step>('identity');
  const [values, setValues] = useState({
    firstname: '',
    lastname: '',
    organisation_name: '',
    email: '',
    contact: '',
    reason: '',
  });
  const [host, setHost] = useState<ChosenHost | null>(null);
  const [privacy, setPrivacy] = useState(false);
  const [photo, setPhoto] = useState<string | null>(null);
  const [noCamera, setNoCamera] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const steps: Step[] = config.ask_photo ? ['identity', 'visit', 'photo'] : ['identity', 'visit'];

  const field = (name: keyof typeof values, label: string, extra: object = {}) => (
    <TextInput
      size="lg"
      label={label}
      name={name}
      value={values[name]}
      error={errors[name]}
      maxLength={name === 'reason' ? 500 : 200}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setValues((v) => ({ ...v, [name]: value }));
        setErrors((e) => ({ ...e, [name]: undefined }));
      }}
      {...extra}
    />
  );

  const checkIdentity = () => {
    const found: Partial<Record<Field, string>> = {};
    for (const name of ['firstname', 'lastname', 'organisation_name'] as const) {
      if (!values[name].trim()) found[name] = t('walkIn.required');
    }
    const email = values.email.trim();
    if (!email && !values.contact.trim()) found.email = t('walkIn.contactRequired');
    else if (email && !EMAIL_PATTERN.test(email)) found.email = t('walkIn.emailInvalid');
    setErrors(found);
    focusFirst(Object.keys(found));
    return Object.keys(found).length === 0;
  };

  const send = async () => {
    setSending(true);
    setFailure(null);
    try {
      const sent = await kioskApi.walkIn({
        firstname: values.firstname.trim(),
        lastname: values.lastname.trim(),
        organisation_name: values.organisation_name.trim(),
        email: values.email.trim(),
        contact: values.contact.trim(),
        reason: values.reason.trim(),
        host_user_id: host?.id ?? null,
        language: interfaceLanguage(),
        photo: photo ?? null,
        privacy_accepted: true,
      });
      onSent(sent);
    } catch (error) {
      setSending(false);
      const fieldErrors = error instanceof KioskApiError ? error.errors : undefined;
      const known = Object.entries(fieldErrors ?? {}).filter(
        (entry): entry is [Field, string] => entry[0] in STEP_OF,
      );
      if (known.length) {
        setErrors(Object.fromEntries(known));
        setStep(STEP_OF[known[0]![0]]);
        focusFirst(known.map(([name]) => name));
      } else {
        setFailure(
          statusOf(error) === 0
            ? t('needsNetwork')
            : (error instanceof KioskApiError && error.serverMessage) || t('failed'),
        );
      }
    }
  };

  const next = () => {
    if (step === 'identity') {
      if (checkIdentity()) setStep('visit');
    } else if (step === 'visit') {
      if (!privacy) {
        setErrors((e) => ({ ...e, privacy_accepted: t('walkIn.privacyRequired') }));
        focusFirst(['privacy_accepted']);
        return;
      }
      if (config.ask_photo) setStep('photo');
      else void send();
    } else {
      void send();
    }
  };

  const current = steps.indexOf(step) + 1;
  const last = current === steps.length;
  return (
    <Stack gap="lg">
      <Text c="dimmed" fw={600}>
        {t('walkIn.step', { current, total: steps.length })} —{' '}
        {step === 'identity'
          ? t('walkIn.identityStep')
          : step === 'visit'
            ? t('walkIn.visitStep')
            : t('photo.title')}
      </Text>
      {!online && (
        <Alert color="orange" variant="light" role="alert">
          {t('needsNetwork')}
        </Alert>
      )}
      {step === 'identity' && (
        <Stack gap="md">
          {field('firstname', t('walkIn.firstname'), { autoComplete: 'off', required: true })}
          {field('lastname', t('walkIn.lastname'), { autoComplete: 'off', required: true })}
          {field('organisation_name', t('walkIn.organisation'), {
            autoComplete: 'off',
            required: true,
          })}
          <Text size="sm" c="dimmed">
            {t('walkIn.contactHelp')}
          </Text>
          {field('email', t('walkIn.email'), {
            type: 'email',
            inputMode: 'email',
            autoComplete: 'off',
          })}
          {field('contact', t('walkIn.phone'), {
            type: 'tel',
            inputMode: 'tel',
            autoComplete: 'off',
          })}
        </Stack>
      )}
      {step === 'visit' && (
        <Stack gap="md">
          <HostPicker
            value={host}
            error={errors.host_user_id}
            onChange={(chosen) => {
              setHost(chosen);
              setErrors((e) => ({ ...e, host_user_id: undefined }));
            }}
          />
          {field('reason', t('walkIn.reason'), { autoComplete: 'off' })}
          <PrivacyNotice
            companySlug={config.company.slug}
            checked={privacy}
            error={errors.privacy_accepted}
            onChange={(checked) => {
              setPrivacy(checked);
              setErrors((e) => ({ ...e, privacy_accepted: undefined }));
            }}
          />
        </Stack>
      )}
      {step === 'photo' && (
        <>
          <PhotoStep
            photo={photo}
            onPhoto={(taken) => {
              setPhoto(taken);
              setErrors((e) => ({ ...e, photo: undefined }));
            }}
            onUnavailable={() => setNoCamera(true)}
          />
          {errors.photo && (
            <Text c="red.8" role="alert">
              {errors.photo}
            </Text>
          )}
        </>
      )}
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      )}
      <Button
        size="xl"
        onClick={next}
        loading={sending}
        disabled={(last && !online) || (step === 'photo' && !photo && !noCamera)}
      >
        {last ? t('walkIn.send') : t('continue')}
      </Button>
    </Stack>
  );
}
