/**
 * DateField's calendar (@mantine/dates and dayjs's French): loaded when the calendar is
 * first opened, not with the form.
 */
import { DatePicker, type DatePickerProps } from '@mantine/dates';
import 'dayjs/locale/fr';
// Its CSS comes with it: the forms' first paint does not wait for the calendar's styles.
import '@mantine/dates/styles.css';

export default function DateFieldCalendar(props: DatePickerProps) {
  return <DatePicker {...props} />;
}
