/**
 * A signature drawn with a finger, a pen or the mouse (signature_pad), with "Effacer". The
 * canvas is drawn at one pixel per CSS pixel (never the screen's density): the PNG stays a
 * few kilobytes, far under the server's limit. A drawing kept across a resize (the tablet
 * turned). Whoever cannot draw signs by typing their name (SignDocuments): nothing here is
 * the only way.
 */
import { useEffect, useRef } from 'react';
import { Button, Group, Text } from '@mantine/core';
import SignaturePadEngine from 'signature_pad';
import { useTranslation } from '../../lib/i18n';

const HEIGHT = 200;

export function SignaturePad({
  onChange,
  error,
  drawn,
}: {
  /** The drawing as a PNG data URL after each stroke; null once cleared. */
  onChange: (image: string | null) => void;
  error?: string | null;
  drawn: boolean;
}) {
  const { t } = useTranslation('signing');
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePadEngine | null>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const engine = new SignaturePadEngine(element, {
      penColor: '#1A1B1E',
      minWidth: 1,
      maxWidth: 2.5,
    });
    pad.current = engine;
    const fit = () => {
      const width = Math.max(1, Math.round(element.getBoundingClientRect().width));
      if (element.width === width && element.height === HEIGHT) return;
      const strokes = engine.toData();
      element.width = width;
      element.height = HEIGHT;
      engine.clear();
      if (strokes.length) engine.fromData(strokes);
    };
    fit();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fit);
    observer?.observe(element);
    const stroke = () => changed.current(engine.isEmpty() ? null : engine.toDataURL('image/png'));
    engine.addEventListener('endStroke', stroke);
    return () => {
      observer?.disconnect();
      engine.removeEventListener('endStroke', stroke);
      engine.off();
      pad.current = null;
    };
  }, []);

  return (
    <div>
      <Text size="sm" id="sesame-signature-pad-help" mb={4}>
        {t('padHelp')}
      </Text>
      <canvas
        ref={canvas}
        role="img"
        aria-label={t('pad')}
        aria-describedby="sesame-signature-pad-help"
        data-testid="signature-pad"
        className="sesame-signature-pad"
        style={{
          display: 'block',
          width: '100%',
          height: HEIGHT,
          touchAction: 'none',
          background: '#fff',
          border: `2px solid ${error ? 'var(--mantine-color-red-7)' : 'var(--mantine-color-gray-6)'}`,
          borderRadius: 'var(--mantine-radius-md)',
          cursor: 'crosshair',
        }}
      />
      <Group justify="space-between" mt="xs" wrap="wrap">
        <Text size="sm" role="status" aria-live="polite">
          {drawn ? t('padDrawn') : ''}
        </Text>
        <Button
          variant="default"
          mih={44}
          onClick={() => {
            pad.current?.clear();
            changed.current(null);
          }}
        >
          {t('clear')}
        </Button>
      </Group>
      {error && (
        <Text c="red.8" size="sm" mt={4} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
