/**
 * The member card (spec §2 Member card creation, Member list badge): a recto
 * (logo, name, title, contact, photo, QR) and a verso (logo), and the Capture
 * that downloads the recto PNG and the two-page A4 PDF with crop marks, and the
 * card printer's PDF (two ID-1 pages).
 */
import { useRef, useState, type Ref } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { captureMemberCard, captureMemberCardForPrinter } from '../lib/card-capture';
import { displayName } from '../lib/names';
import classes from './MemberCard.module.css';

export interface BadgeData {
  uidn: string;
  firstname: string | null;
  lastname: string | null;
  title: string | null;
  contact: string | null;
  /** Same-origin signed URL of the photo. */
  photo: string | null;
  /** The QR as a data URL. */
  qrcode: string;
  company: { name: string; logo_url: string | null };
}

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

function Logo({ company }: { company: BadgeData['company'] }) {
  const { t } = useTranslation('qrUsers');
  return company.logo_url ? (
    <img src={company.logo_url} alt={t('card.logoOf', { company: company.name })} />
  ) : (
    <span className={classes.initials} aria-hidden="true">
      {initialsOf(company.name)}
    </span>
  );
}

/**
 * The member's photo, or 'Aucune Photo' in its frame: also when the photo cannot be
 * loaded (erased, or a signed URL that ended), never a broken-image glyph.
 */
function MemberPhoto({ src, name }: { src: string | null; name: string }) {
  const { t } = useTranslation('qrUsers');
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) {
    return <div className={classes.noPhoto}>{t('card.noPhoto')}</div>;
  }
  return (
    <img
      className={classes.photo}
      src={src}
      alt={t('card.photoOf', { name })}
      onError={() => setFailed(src)}
    />
  );
}

export function MemberCardRecto({ data, ref }: { data: BadgeData; ref?: Ref<HTMLDivElement> }) {
  const { t } = useTranslation('qrUsers');
  const name = displayName(data);
  return (
    <div ref={ref} className={classes.card} data-testid="member-card-recto">
      <div className={classes.header}>
        <div className={classes.logoChip}>
          <Logo company={data.company} />
        </div>
        <div className={classes.company}>{data.company.name}</div>
      </div>
      <div className={classes.body}>
        <MemberPhoto src={data.photo} name={name} />
        <div className={classes.identity}>
          <div className={classes.name}>{name}</div>
          {data.title && <div className={classes.title}>{data.title}</div>}
          {data.contact && <div className={classes.contact}>{data.contact}</div>}
        </div>
        <div className={classes.qr}>
          <img src={data.qrcode} alt={t('card.qrOf', { name })} />
          <span className={classes.uidn}>{data.uidn}</span>
        </div>
      </div>
      <div className={classes.footer}>{t('card.memberCard')}</div>
    </div>
  );
}

export function MemberCardVerso({ data, ref }: { data: BadgeData; ref?: Ref<HTMLDivElement> }) {
  const { t } = useTranslation('qrUsers');
  return (
    <div ref={ref} className={classes.verso} data-testid="member-card-verso">
      <div className={classes.versoLogo}>
        <Logo company={data.company} />
      </div>
      <div className={classes.versoCompany}>{data.company.name}</div>
      <div className={classes.versoNote}>{t('card.versoNote', { company: data.company.name })}</div>
    </div>
  );
}

/** Recto and verso side by side (stacked on a phone), with the Capture button. */
export function MemberBadge({ data, domain }: { data: BadgeData; domain: string }) {
  const { t } = useTranslation('qrUsers');
  const recto = useRef<HTMLDivElement>(null);
  const verso = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState<'a4' | 'printer' | null>(null);

  const capture = async (kind: 'a4' | 'printer') => {
    setBusy(kind);
    try {
      if (kind === 'a4') {
        await captureMemberCard(recto.current, verso.current, {
          domain,
          uidn: data.uidn,
          caption: t('card.cropCaption'),
        });
      } else {
        await captureMemberCardForPrinter(recto.current, verso.current, data.uidn);
      }
    } catch (error) {
      console.error('Badge capture failed', error);
      notifications.show({ color: 'red', message: t('card.captureFailed') });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="md" align="center">
      <Group gap="lg" justify="center" align="flex-start">
        <Stack gap={4} align="center">
          <Text size="sm" fw={600} c="dimmed">
            {t('card.recto')}
          </Text>
          <MemberCardRecto ref={recto} data={data} />
        </Stack>
        <Stack gap={4} align="center">
          <Text size="sm" fw={600} c="dimmed">
            {t('card.verso')}
          </Text>
          <MemberCardVerso ref={verso} data={data} />
        </Stack>
      </Group>
      <Group gap="sm" justify="center">
        <Button
          onClick={() => void capture('a4')}
          loading={busy === 'a4'}
          disabled={busy !== null}
          data-testid="member-card-capture"
        >
          {t('card.capture')}
        </Button>
        <Button
          variant="light"
          onClick={() => void capture('printer')}
          loading={busy === 'printer'}
          disabled={busy !== null}
        >
          {t('card.printerPdf')}
        </Button>
      </Group>
    </Stack>
  );
}
