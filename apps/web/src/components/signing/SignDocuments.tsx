/**
 * The signing step (issue 31), on the kiosk, the public form and the invitation's link: each
 * document in turn — its title and its text in the visitor's language (scrollable, reachable
 * by keyboard), the signer's full name, then a signature drawn with a finger or the mouse, or,
 * for whoever cannot draw, "Signer en tapant mon nom" with its box to tick (WCAG 2.2 SC 2.5.7:
 * no step needs dragging, the typed way is a text field, a checkbox and a button). Once the
 * last one is signed, `onSigned` gets the signatures as the server reads them; "Modifier mes
 * signatures" starts again (and says so with `onSigned(null)`). This module brings
 * signature_pad and its words: load it with LazySignDocuments, only when a document is to sign.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { VISITOR_TYPE_LIMITS, type SignatureInput } from '@sesame/shared';
import { useTranslation, withFrenchWords } from '../../lib/i18n';
import signingWords from '../../locales/fr/signing.json';
import { DocumentText } from './DocumentText';
import { SignaturePad } from './SignaturePad';
import {
  dataUrlBytes,
  draftProblem,
  signatureOf,
  type DocumentShown,
  type SignatureDraft,
} from './signatures';
import './signing.css';

withFrenchWords({ signing: signingWords });

export interface SignDocumentsProps {
  documents: readonly DocumentShown[];
  /** The visitor's full name when the page knows it (prefilled, still editable). */
  name?: string;
  onSigned: (signatures: SignatureInput[] | null) => void;
  /** The level of each document's title (the page's own heading is above). */
  headingLevel?: 2 | 3;
  /** 'xl' on the kiosk (a tablet: large fields and buttons). */
  size?: 'md' | 'lg' | 'xl';
}

type Problem = 'nameRequired' | 'drawingMissing' | 'notAccepted' | 'tooLarge';

export default function SignDocuments({
  documents,
  name: knownName = '',
  onSigned,
  headingLevel = 2,
  size = 'md',
}: SignDocumentsProps) {
  const { t } = useTranslation('signing');
  const [index, setIndex] = useState(0);
  const [signed, setSigned] = useState<SignatureInput[]>([]);
  // The page's name (it may still be typed above) until the signer changes it here.
  const [typedName, setName] = useState<string | null>(null);
  const name = typedName ?? knownName;
  const [method, setMethod] = useState<'drawn' | 'typed'>('drawn');
  const [image, setImage] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);
  /** "Send me the signed document by e-mail": one choice for every document of the step. */
  const [sendCopy, setSendCopy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [announce, setAnnounce] = useState('');
  const title = useRef<HTMLHeadingElement>(null);
  const done = index >= documents.length;
  const doc = documents[index];
  const buttonSize = size === 'xl' ? 'xl' : size === 'lg' ? 'lg' : 'md';

  useEffect(() => {
    if (index > 0) title.current?.focus();
  }, [index]);

  if (done) {
    return (
      <Stack gap="sm" data-testid="signing-done">
        <Alert color="teal" variant="light" role="status">
          <Stack gap={4}>
            <Text fw={600}>{t('allSigned', { count: documents.length })}</Text>
            {documents.map((d) => (
              <Text key={d.document_id} size="sm">
                ✓ {d.title}
              </Text>
            ))}
          </Stack>
        </Alert>
        <Group>
          <Button
            variant="default"
            size={buttonSize}
            mih={44}
            onClick={() => {
              setSigned([]);
              setIndex(0);
              setImage(null);
              setAccepted(false);
              setAnnounce('');
              onSigned(null);
            }}
          >
            {t('change')}
          </Button>
        </Group>
      </Stack>
    );
  }
  if (!doc) return null;

  const draft: SignatureDraft =
    method === 'drawn' ? { method, name, image } : { method, name, accepted };
  const problemText = problem ? t(problem) : null;

  const sign = () => {
    const found = draftProblem(draft);
    if (found) {
      setProblem(found);
      if (found === 'nameRequired') document.getElementById('sesame-signer-name')?.focus();
      else if (found === 'notAccepted') document.getElementById('sesame-signer-accept')?.focus();
      return;
    }
    if (
      method === 'drawn' &&
      image &&
      dataUrlBytes(image) > VISITOR_TYPE_LIMITS.signatureMaxBytes
    ) {
      setProblem('tooLarge');
      return;
    }
    const next = [...signed, signatureOf(doc, draft, sendCopy)];
    setSigned(next);
    setProblem(null);
    setImage(null);
    setAccepted(false);
    setAnnounce(t('signed', { title: doc.title }));
    setIndex(index + 1);
    if (next.length === documents.length) onSigned(next);
  };

  return (
    <Stack gap="md" data-testid="signing-step" lang={doc.language}>
      <VisuallyHidden role="status" aria-live="polite">
        {announce}
      </VisuallyHidden>
      {documents.length > 1 && (
        <Text c="dimmed" fw={600}>
          {t('progress', { current: index + 1, total: documents.length })}
        </Text>
      )}
      <Title ref={title} order={headingLevel} size="h3" tabIndex={-1}>
        {doc.title}
      </Title>
      <div
        className="sesame-document-scroll"
        role="region"
        aria-label={t('text', { title: doc.title })}
        tabIndex={0}
        data-testid="signing-text"
      >
        <DocumentText source={doc.body} headingLevel={headingLevel + 1} />
      </div>
      <TextInput
        id="sesame-signer-name"
        name="signer_name"
        size={size}
        label={t('name')}
        value={name}
        required
        autoComplete="name"
        maxLength={200}
        error={problem === 'nameRequired' ? problemText : undefined}
        onChange={(event) => {
          setName(event.currentTarget.value);
          if (problem === 'nameRequired') setProblem(null);
        }}
      />
      <Group gap="sm" role="group" aria-label={t('method')} wrap="wrap">
        {(['drawn', 'typed'] as const).map((m) => (
          <Button
            key={m}
            size={buttonSize}
            mih={44}
            variant={method === m ? 'filled' : 'default'}
            aria-pressed={method === m}
            onClick={() => {
              setMethod(m);
              setProblem(null);
            }}
          >
            {t(m)}
          </Button>
        ))}
      </Group>
      {method === 'drawn' ? (
        <SignaturePad
          drawn={!!image}
          error={problem === 'drawingMissing' || problem === 'tooLarge' ? problemText : null}
          onChange={(drawing) => {
            setImage(drawing);
            if (drawing) setProblem(null);
          }}
        />
      ) : (
        <Checkbox
          id="sesame-signer-accept"
          size={size === 'md' ? 'md' : 'lg'}
          label={t('accept')}
          checked={accepted}
          error={problem === 'notAccepted' ? problemText : undefined}
          onChange={(event) => {
            setAccepted(event.currentTarget.checked);
            setProblem(null);
          }}
        />
      )}
      <Checkbox
        size={size === 'md' ? 'md' : 'lg'}
        label={t('sendCopy')}
        checked={sendCopy}
        onChange={(event) => setSendCopy(event.currentTarget.checked)}
      />
      <Button size={buttonSize} mih={44} onClick={sign}>
        {t('sign')}
      </Button>
    </Stack>
  );
}
