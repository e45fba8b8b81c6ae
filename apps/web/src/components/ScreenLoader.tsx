import { Center, Loader } from '@mantine/core';

/**
 * A loader that holds a screen's height while what it stands for comes (a page's code, the
 * record a form needs, the form itself): the footer does not show and then jump down when
 * the content arrives (issue 19, CLS).
 */
export function ScreenLoader({ label }: { label: string }) {
  return (
    <Center py="xl" mih="100vh" style={{ alignItems: 'flex-start' }}>
      <Loader aria-label={label} />
    </Center>
  );
}
