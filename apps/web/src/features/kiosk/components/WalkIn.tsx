/**
 * "Je n'ai pas de rendez-vous" (issue 29): who the visitor is, then whom they visit and why
 * with the privacy notice, then their photo when the kiosk asks for one — each step ends on
 * "Continuer", and the last one sends the request (the host is told at once). What is typed
 * lives in this component's state only: the idle reset or the end of the visit discards it.
 * Issue 31: the visitor type first (one big button each, its badge colour beside its name;
 * skipped when the site has one), its required fields (the organisation, the phone, the ID
 * number), then its documents signed before the host step.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Center, Loader, Stack, Text, TextInput } from '@mantine/core';
import {
  EMAIL_PATTERN,
  type DocumentToSign,
  type KioskConfig,
  type PublicVisitorType,
  type SignatureInput,
} from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { interfaceLanguage } from '../../../lib/language';
import { PrivacyNotice } from '../../../components/visitor-form/PrivacyNotice';
import { LazySignDocuments } from '../../../components/signing/LazySignDocuments';
import { documentsOfType } from '../../../components/signing/signatures';
import { kioskApi, KioskApiError, statusOf, type KioskWalkInSent } from '../api';
import { HostPicker, type ChosenHost } from './HostPicker';

import { PhotoStep } from './PhotoStep';

type Step = 'type' | 'identity' | 'sign' | 'visit' | 'photo';
type Field =
  | 'visitor_type_id'
  | 'firstname'
  | 'lastname'
  | 'organisation_name'
  | 'email'
  | 'contact'
  | 'id_number'
  | 'signatures'
  | 'host_user_id'
  | 'reason'
  | 'privacy_accepted'
  | 'photo';

const STEP_OF: Record<Field, Step> = {
  visitor_type_id: 'type',
  id_number: 'identity',
  signatures: 'sign',
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
  onSent: (sent: KioskWalkInSent & { firstname: string }) => void;
}) {
  const { t } = useTranslation('kiosk');
  const [step, setStep] = useState<Step>('type');
  /** The site's types (null while they load); the one chosen. */
  const [types, setTypes] = useState<PublicVisitorType[] | null>(null);
  const [type, setType] = useState<PublicVisitorType | null>(null);
  const [signatures, setSignatures] = useState<SignatureInput[] | null>(null);
  /**
   * The type's documents this visitor must still sign, asked once their e-mail is known: a
   * returning visitor whose signature still holds is not asked again (null: not asked yet).
   */
  const [stillToSign, setStillToSign] = useState<DocumentToSign[] | null>(null);
  const [values, setValues] = useState({
    firstname: '',
    lastname: '',
    organisation_name: '',
    email: '',
    contact: '',
    id_number: '',
    reason: '',
  });
  const [host, setHost] = useState<ChosenHost | null>(null);
  const [privacy, setPrivacy] = useState(false);
  const [photo, setPhoto] = useState<string | null>(null);
  const [noCamera, setNoCamera] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const requires = (field: PublicVisitorType['required_fields'][number]) =>
    !!type?.required_fields.includes(field);
  const documents = stillToSign ?? documentsOfType(type, interfaceLanguage());
  const steps: Step[] = [
    ...((types?.length ?? 0) > 1 ? (['type'] as const) : []),
    'identity',
    ...(documents.length ? (['sign'] as const) : []),
    'visit',
    ...(config.ask_photo ? (['photo'] as const) : []),
  ];

  // The site's types, once: a site with one goes straight to the visitor's details.
  useEffect(() => {
    let current = true;
    kioskApi.visitorTypes().then(
      (found) => {
        if (!current) return;
        setTypes(found);
        if (found.length <= 1) {
          setType(found[0] ?? null);
          setStep('identity');
        }
      },
      (error: unknown) => {
        if (!current) return;
        setFailure(
          statusOf(error) === 0
            ? t('needsNetwork')
            : (error instanceof KioskApiError && error.serverMessage) || t('failed'),
        );
      },
    );
    return () => {
      current = false;
    };
  }, [t]);

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
        if (name === 'email') setStillToSign(null);
      }}
      {...extra}
    />
  );

  const checkIdentity = () => {
    const found: Partial<Record<Field, string>> = {};
    for (const name of ['firstname', 'lastname'] as const) {
      if (!values[name].trim()) found[name] = t('walkIn.required');
    }
    if (requires('organisation') && !values.organisation_name.trim())
      found.organisation_name = t('walkIn.required');
    const email = values.email.trim();
    if (requires('phone') && !values.contact.trim()) found.contact = t('walkIn.required');
    if (!email && !values.contact.trim() && !found.contact)
      found.email = t('walkIn.contactRequired');
    else if (email && !EMAIL_PATTERN.test(email)) found.email = t('walkIn.emailInvalid');
    if (requires('id_number') && !values.id_number.trim()) found.id_number = t('walkIn.required');
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
        id_number: requires('id_number') ? values.id_number.trim() : '',
        visitor_type_id: type?.id ?? null,
        signatures: signatures ?? [],
        reason: values.reason.trim(),
        host_user_id: host?.id ?? null,
        language: interfaceLanguage(),
        photo: photo ?? null,
        privacy_accepted: true,
      });
      onSent({ ...sent, firstname: values.firstname.trim() });
    } catch (error) {
      setSending(false);
      const fieldErrors = error instanceof KioskApiError ? error.errors : undefined;
      const known = Object.entries(fieldErrors ?? {}).filter(
        (entry): entry is [Field, string] => entry[0] in STEP_OF,
      );
      if (known.length) {
        setErrors(Object.fromEntries(known));
        const back = STEP_OF[known[0]![0]];
        // A document changed meanwhile (or a signature refused): signed again.
        if (back === 'sign') setSignatures(null);
        if (back === 'sign' || back === 'type') setFailure(known[0]![1]);
        setStep(back);
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

  /** The documents left to sign for the e-mail typed (all of them when it cannot be asked). */
  const toSignFor = async (): Promise<DocumentToSign[]> => {
    const all = documentsOfType(type, interfaceLanguage());
    const email = values.email.trim();
    if (!type || !all.length || !email) return all;
    try {
      return await kioskApi.toSign({
        visitor_type_id: type.id,
        email,
        language: interfaceLanguage(),
      });
    } catch {
      return all;
    }
  };

  const next = () => {
    if (step === 'identity') {
      if (!checkIdentity()) return;
      void toSignFor().then((left) => {
        setStillToSign(left);
        setStep(left.length && !signatures ? 'sign' : 'visit');
      });
    } else if (step === 'sign') {
      if (signatures) setStep('visit');
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
        {step === 'type'
          ? t('walkIn.typeStep')
          : step === 'identity'
            ? t('walkIn.identityStep')
            : step === 'sign'
              ? t('walkIn.signStep')
              : step === 'visit'
                ? t('walkIn.visitStep')
                : t('photo.title')}
      </Text>
      {!online && (
        <Alert color="orange" variant="light" role="alert">
          {t('needsNetwork')}
        </Alert>
      )}
      {step === 'type' && !types && !failure && (
        <Center py="xl">
          <Loader aria-label={t('loading')} />
        </Center>
      )}
      {step === 'type' && types && (
        <Stack gap="md" role="group" aria-label={t('walkIn.typeStep')}>
          <Text size="lg">{t('walkIn.typeIntro')}</Text>
          {types.map((option) => (
            <Button
              key={option.id}
              size="xl"
              variant="default"
              className="sesame-kiosk-choice sesame-kiosk-type"
              justify="flex-start"
              data-testid="kiosk-visitor-type"
              style={{ borderInlineStart: `0.875rem solid ${option.color}` }}
              onClick={() => {
                if (type?.id !== option.id) {
                  setSignatures(null);
                  setStillToSign(null);
                }
                setType(option);
                setFailure(null);
                setStep('identity');
              }}
            >
              {interfaceLanguage() === 'en' ? option.name_en : option.name_fr}
            </Button>
          ))}
        </Stack>
      )}
      {step === 'identity' && (
        <Stack gap="md">
          {field('firstname', t('walkIn.firstname'), { autoComplete: 'off', required: true })}
          {field('lastname', t('walkIn.lastname'), { autoComplete: 'off', required: true })}
          {field('organisation_name', t('walkIn.organisation'), {
            autoComplete: 'off',
            required: requires('organisation'),
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
            required: requires('phone'),
          })}
          {requires('id_number') &&
            field('id_number', t('walkIn.idNumber'), { autoComplete: 'off', required: true })}
        </Stack>
      )}
      {step === 'sign' && (
        <LazySignDocuments
          documents={documents}
          name={`${values.firstname.trim()} ${values.lastname.trim()}`.trim()}
          size="xl"
          loadingLabel={t('loading')}
          onSigned={(signed) => {
            setSignatures(signed);
            setFailure(null);
            if (signed) setStep('visit');
          }}
        />
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
      {step !== 'type' && step !== 'sign' && (
        <Button
          size="xl"
          onClick={next}
          loading={sending}
          disabled={(last && !online) || (step === 'photo' && !photo && !noCamera)}
        >
          {last ? t('walkIn.send') : t('continue')}
        </Button>
      )}
    </Stack>
  );
}
