/**
 * Checkboxes for a list of technical values (an API key's scopes, a webhook's events): each
 * labelled in the reader's words, its technical name small beside it, as the API's
 * documentation and the receiver's code name it.
 */
import { Checkbox, SimpleGrid, Text } from '@mantine/core';
import '@mantine/core/styles/SimpleGrid.css';

export function ChoiceList<Value extends string>(props: {
  label: string;
  description?: string;
  /** The field's name (the form's `data-path`, for the focus on a refused submit). */
  name: string;
  options: readonly Value[];
  labelOf: (value: Value) => string;
  value: Value[];
  onChange: (value: Value[]) => void;
  error?: string;
}) {
  return (
    <Checkbox.Group
      label={props.label}
      description={props.description}
      value={props.value}
      onChange={(value) => props.onChange(value as Value[])}
      error={props.error}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs" mt={6}>
        {props.options.map((option, i) => (
          <Checkbox
            key={option}
            value={option}
            name={props.name}
            // A refused list puts the focus on its first box.
            data-path={i === 0 ? props.name : undefined}
            label={
              <>
                {props.labelOf(option)}{' '}
                <Text span size="xs" c="dimmed" ff="monospace">
                  {option}
                </Text>
              </>
            }
          />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}
