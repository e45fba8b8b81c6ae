/**
 * The permanent QR code's card (spec §2 QR code creation): company logo, name,
 * email, contact, title, QR image and uidn, with a Capture link (PNG).
 */
import { useRef, useState, type Ref } from 'react';
import { Anchor, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import type { QrUserCard as Card } from '@sesame/shared';
import { captureQrCard } from '../lib/card-capture';
import { displayName, formatDay } from '../lib/names';
import classes from './QrCard.module.css';

export function QrUserCardView({ card, ref }: { card: Card; ref?: Ref<HTMLDivElement> }) {
  const { t, i18n } = useTranslation('qrUsers');
  const name = displayName(card);
  const company = card.company;
  const day = formatDay(card.dateExp, i18n.language);
  return (
    <div ref={ref} className={classes.card} data-testid="qr-user-card">
      <div className={classes.header}>
        <div className={classes.logo}>
          {company.logo_url ? (
            <img src={company.logo_url} alt={t('card.logoOf', { company: company.name })} />
          ) : (
            <span className={classes.initials} aria-hidden="true">
              {company.name.slice(0, 2).toUpperCase()}
            </span>
          )}
        </div>
        <div className={classes.company}>{company.name}</div>
      </div>
      <div className={classes.body}>
        {name && <div className={classes.name}>{name}</div>}
        {card.title && <div className={classes.title}>{card.title}</div>}
        {card.email && <div className={classes.line}>{card.email}</div>}
        {card.contact && <div className={classes.line}>{card.contact}</div>}
        <img
          className={classes.qr}
          src={card.qrcode}
          alt={t('card.qrOf', { name: name || card.uidn })}
        />
        <div className={classes.uidn}>{card.uidn}</div>
        <div className={card.expired ? classes.expired : classes.expiry}>
          {card.dateExp
            ? t(card.expired ? 'card.expired' : 'card.expires', { date: day })
            : t('card.noExpiry')}
        </div>
      </div>
    </div>
  );
}

/** The card and its Capture link. */
export function QrUserCardWithCapture({ card, domain }: { card: Card; domain: string }) {
  const { t } = useTranslation('qrUsers');
  const node = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const capture = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await captureQrCard(node.current, domain, card.uidn);
    } catch (error) {
      console.error('QR card capture failed', error);
      notifications.show({ color: 'red', message: t('card.captureFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack align="center" gap="sm">
      <QrUserCardView ref={node} card={card} />
      <Anchor
        component="button"
        type="button"
        onClick={() => void capture()}
        fw={600}
        data-testid="qr-card-capture"
      >
        {busy ? t('card.capturing') : t('card.capture')}
      </Anchor>
    </Stack>
  );
}
