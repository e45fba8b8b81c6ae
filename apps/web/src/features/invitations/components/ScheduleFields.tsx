/**
 * An invitation's meeting (issue 30): site (none to choose when the company has one), first
 * day, start and end times as the visitor form asks them, reason, the mails' language, and
 * the repetition ("Tous les lundis et jeudis jusqu'au 30/06/2027"). The invite screen and
 * "Modifier" share it; their form checks it with the shared schema.
 */
import {
  Button,
  Checkbox,
  Grid,
  Group,
  NativeSelect,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import {
  HOURS,
  HOUR_PLACEHOLDER,
  LANGUAGES,
  MINUTES,
  MINUTE_PLACEHOLDER,
  WEEKDAYS,
  isVisitDate,
  type Site,
  type Weekday,
} from '@sesame/shared';
import { DateField } from '../../../components/DateField';
import { todayIn } from '../../../lib/format';
import type { FormState } from '../../../lib/form-state';
import { useTranslation } from '../../../lib/i18n';
import { zoneCity, zoneDiffers } from '../../../lib/zone-label';
import {
  formRule,
  ruleSentence,
  weekdayName,
  type Lang,
  type ScheduleValues,
} from '../lib/invitations';
import { VisitorTypeSelect } from './VisitorTypeSelect';
import '@mantine/core/styles/Switch.css';

const hourOptions = [HOUR_PLACEHOLDER, ...HOURS];
const minuteOptions = [MINUTE_PLACEHOLDER, ...MINUTES];

/** The languages the mails are written in, each named in itself. */
export const MAIL_LANGUAGES: Record<Lang, string> = { fr: 'Français', en: 'English' };

export function ScheduleFields<Values extends ScheduleValues>(props: {
  form: FormState<Values>;
  /** The company's active sites the person may invite to. */
  sites: readonly Site[];
  /** Ids unique on the page (the invite form, the edit dialog). */
  idPrefix: string;
  /** The visitors' type is chosen here (issue 31: the invite form; "Modifier" keeps its own). */
  withType?: boolean;
}) {
  const { t, i18n } = useTranslation('invitations');
  const lang: Lang = i18n.language.startsWith('en') ? 'en' : 'fr';
  const { form, sites, idPrefix } = props;
  const values = form.values;
  const site =
    sites.find((s) => s.id === values.site_id) ?? (sites.length === 1 ? sites[0] : undefined);
  const zone = site?.timezone;
  const today = todayIn(zone ?? 'Africa/Abidjan');
  const city = zone ? zoneCity(zone, lang) : '';
  const zoneHint =
    zone && zoneDiffers(zone)
      ? t(/^[aeiouyàâéèêîôûh]/i.test(city) ? 'schedule.siteZoneElided' : 'schedule.siteZone', {
          city,
        })
      : undefined;
  const field = (name: keyof ScheduleValues & keyof Values & string) => form.getInputProps(name);

  const time = (
    hour: 'hour' | 'end_hour',
    minute: 'minute' | 'end_minute',
    path: 'time' | 'end_time',
  ) => {
    const error = form.errors[path];
    const set = (which: 'hour' | 'minute' | 'end_hour' | 'end_minute', value: string) => {
      form.setFieldValue(which, value as Values[typeof which]);
      form.clearFieldError(path);
    };
    return (
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <NativeSelect
          label={t(`schedule.${hour}`)}
          data={hourOptions}
          value={values[hour]}
          onChange={(e) => set(hour, e.currentTarget.value)}
          required
          error={error}
          data-path={path}
          name={`${idPrefix}-${hour}`}
          style={{ flex: 1 }}
        />
        <NativeSelect
          label={t(`schedule.${minute}`)}
          data={minuteOptions}
          value={values[minute]}
          onChange={(e) => set(minute, e.currentTarget.value)}
          required
          error={!!error}
          name={`${idPrefix}-${minute}`}
          style={{ flex: 1 }}
        />
      </Group>
    );
  };

  const rule =
    values.repeat && values.days.length > 0 && isVisitDate(values.until) ? formRule(values) : null;
  const daysLabelId = `${idPrefix}-days-label`;

  return (
    <Grid gap="md">
      {sites.length > 1 && (
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label={t('fields.site_id')}
            data={[
              { value: '', label: t('schedule.sitePlaceholder') },
              ...sites.map((s) => ({
                value: s.id,
                label: s.city ? `${s.name} — ${s.city}` : s.name,
              })),
            ]}
            {...field('site_id')}
            required
            name={`${idPrefix}-site`}
          />
        </Grid.Col>
      )}
      {props.withType && site && (
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <VisitorTypeSelect
            siteId={site.id}
            value={values.visitor_type_id}
            onChange={(id) =>
              form.setFieldValue('visitor_type_id', id as Values['visitor_type_id'])
            }
            error={form.errors.visitor_type_id}
            name={`${idPrefix}-visitor-type`}
          />
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <DateField
          label={t('fields.date')}
          placeholder={t('schedule.datePlaceholder')}
          {...field('date')}
          value={values.date}
          onChange={(value) => form.setFieldValue('date', value as Values['date'])}
          calendarLabel={t('schedule.openCalendar')}
          language={lang}
          minDate={today}
          description={zoneHint}
          required
          name={`${idPrefix}-date`}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{time('hour', 'minute', 'time')}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{time('end_hour', 'end_minute', 'end_time')}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput
          label={t('fields.reason')}
          {...field('reason')}
          name={`${idPrefix}-reason`}
          autoComplete="off"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <NativeSelect
          label={t('fields.language')}
          description={t('schedule.languageHint')}
          data={LANGUAGES.map((language) => ({ value: language, label: MAIL_LANGUAGES[language] }))}
          {...field('language')}
          name={`${idPrefix}-language`}
        />
      </Grid.Col>
      <Grid.Col span={12}>
        <Stack gap="sm">
          <Switch
            label={t('schedule.repeat')}
            description={t('schedule.repeatHint')}
            {...form.getInputProps('repeat', { type: 'checkbox' })}
            name={`${idPrefix}-repeat`}
          />
          {!values.repeat && values.kept_rule && (
            <Group gap="sm" data-testid="kept-rule">
              <Text size="sm">
                {t('schedule.keptRule', { rule: ruleSentence(values.kept_rule, lang, t) })}
              </Text>
              <Button
                variant="subtle"
                size="xs"
                onClick={() => form.setFieldValue('kept_rule', null as Values['kept_rule'])}
              >
                {t('schedule.dropRule')}
              </Button>
            </Group>
          )}
          {values.repeat && (
            <>
              <Checkbox.Group
                label={<span id={daysLabelId}>{t('schedule.days')}</span>}
                value={values.days}
                onChange={(days) => {
                  form.setFieldValue(
                    'days',
                    WEEKDAYS.filter((day) => days.includes(day)) as Values['days'],
                  );
                  form.clearFieldError('rrule');
                }}
                error={form.errors.rrule}
                required
              >
                <Group gap="md" mt={6}>
                  {WEEKDAYS.map((day: Weekday, i) => (
                    <Checkbox
                      key={day}
                      value={day}
                      label={weekdayName(day, lang, 'short')}
                      aria-label={weekdayName(day, lang, 'long')}
                      name={`${idPrefix}-days`}
                      data-path={i === 0 ? 'rrule' : undefined}
                    />
                  ))}
                </Group>
              </Checkbox.Group>
              <Grid gap="md">
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <DateField
                    label={t('schedule.until')}
                    placeholder={t('schedule.datePlaceholder')}
                    {...field('until')}
                    value={values.until}
                    onChange={(value) => {
                      form.setFieldValue('until', value as Values['until']);
                      form.clearFieldError('rrule');
                    }}
                    calendarLabel={t('schedule.openUntilCalendar')}
                    language={lang}
                    minDate={
                      isVisitDate(values.date) ? values.date.split('/').reverse().join('-') : today
                    }
                    required
                    name={`${idPrefix}-until`}
                  />
                </Grid.Col>
              </Grid>
              {rule && (
                <Text fw={500} data-testid="rule-summary">
                  {ruleSentence(rule, lang, t)}
                </Text>
              )}
            </>
          )}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
