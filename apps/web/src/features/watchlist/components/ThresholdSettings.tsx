/**
 * The close name match's threshold (issue 31): how alike a visitor's full name and a listed
 * one must be (pg_trgm similarity, 0.3–1) for the visit to be held for review.
 */
import { useState } from 'react';
import { Button, Group, Slider, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WATCHLIST_LIMITS } from '@sesame/shared';
import { PanelSection } from '../../../components/InlineForm';
import { useTranslation } from '../../../lib/i18n';
import { toastDone, toastFailed } from '../../../lib/use-inline-edit';
import { saveWatchlistSettings, useWatchlistSettings, watchlistKeys } from '../api/watchlist';
import '@mantine/core/styles/Slider.css';

export function ThresholdSettings({ company }: { company: string }) {
  const { t } = useTranslation('watchlist');
  const settings = useWatchlistSettings(company);
  const queryClient = useQueryClient();
  const [value, setValue] = useState<number | null>(null);
  const saved = settings.data?.name_threshold ?? WATCHLIST_LIMITS.defaultThreshold;
  const shown = value ?? saved;
  const save = useMutation({
    mutationFn: (name_threshold: number) => saveWatchlistSettings(company, { name_threshold }),
    onSuccess: (answer) => {
      toastDone(answer, t('threshold.saved'));
      setValue(null);
    },
    onError: (error) => toastFailed(error, t('threshold.saveFailed')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchlistKeys.settings(company) }),
  });
  const percent = (n: number) => `${Math.round(n * 100)} %`;

  return (
    <PanelSection titleId="watchlist-threshold" data-testid="watchlist-threshold">
      <Stack gap="sm">
        <Text component="h2" fw={700} size="lg" id="watchlist-threshold">
          {t('threshold.title')}
        </Text>
        <Text size="sm" c="dimmed" id="watchlist-threshold-hint">
          {t('threshold.explanation')}
        </Text>
        <Slider
          min={WATCHLIST_LIMITS.thresholdMin}
          max={WATCHLIST_LIMITS.thresholdMax}
          step={0.05}
          value={shown}
          onChange={setValue}
          disabled={settings.isPending || settings.isError}
          label={percent}
          marks={[
            { value: WATCHLIST_LIMITS.thresholdMin, label: percent(WATCHLIST_LIMITS.thresholdMin) },
            {
              value: WATCHLIST_LIMITS.defaultThreshold,
              label: percent(WATCHLIST_LIMITS.defaultThreshold),
            },
            { value: WATCHLIST_LIMITS.thresholdMax, label: percent(WATCHLIST_LIMITS.thresholdMax) },
          ]}
          thumbLabel={t('threshold.label')}
          thumbProps={{
            'aria-describedby': 'watchlist-threshold-hint',
            'aria-valuetext': percent(shown),
          }}
          mb="lg"
          maw={480}
        />
        <Group>
          <Text size="sm" aria-live="polite">
            {t('threshold.current', { percent: percent(shown) })}
          </Text>
          <Button
            size="sm"
            variant="light"
            onClick={() => save.mutate(Math.round(shown * 100) / 100)}
            loading={save.isPending}
            disabled={value === null || value === saved}
          >
            {t('threshold.save')}
          </Button>
        </Group>
      </Stack>
    </PanelSection>
  );
}
