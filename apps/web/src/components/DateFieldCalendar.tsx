/**
 * DateField's calendar (@mantine/dates, dayjs's French, and the dialog it opens in):
 * loaded when the calendar is first opened, not with the form. A dialog rather than a
 * popover: on a phone it has the room a month needs, and the forms carry no floating
 * positioning code for it (issue 19). Escape or the close button (named by the theme)
 * closes it, and the focus goes back to the calendar button.
 */
import { Modal } from '@mantine/core';
import { DatePicker, type DatePickerProps } from '@mantine/dates';
import 'dayjs/locale/fr';
// Its CSS comes with it: the forms' first paint does not wait for the calendar's styles.
import '@mantine/dates/styles.css';

interface DateFieldCalendarProps extends Omit<DatePickerProps, 'title'> {
  /** The dialog's title and name: the field's label. */
  dialogTitle: React.ReactNode;
  onClose: () => void;
}

export default function DateFieldCalendar({
  dialogTitle,
  onClose,
  ...picker
}: DateFieldCalendarProps) {
  return (
    <Modal opened onClose={onClose} title={dialogTitle} size="auto" centered>
      <DatePicker {...picker} />
    </Modal>
  );
}
