/** The navbar's menu of the signed-in person's own pages (issues 15, 17). */
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import type { UserInfo } from '@sesame/shared';
import classes from './AppLayout.module.css';

/** 'Sésame Admin' → 'SA': the account menu's face on a phone. */
function initials(user: { firstname: string; name: string }): string {
  const letters = [user.firstname, user.name].map((word) => word.trim().charAt(0)).join('');
  return letters.toUpperCase() || '?';
}

export default function UserMenu({ user, ownSlug }: { user: UserInfo; ownSlug: string }) {
  // The mail settings' words live with their page (hostLoop): loaded as the menu mounts, so
  // they are there when it opens, without holding the navbar back (issue 27: a raw key).
  const { t } = useTranslation(['common', 'hostLoop'], { useSuspense: false });
  return (
    <Menu position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          // The initials and the name shown, then what it opens (WCAG 2.5.3: a
          // voice user names the button by what they see).
          aria-label={t('nav.userMenu', {
            initials: initials(user),
            name: user.firstname || user.name,
          })}
          data-testid="user-menu"
          className={classes.userMenu}
        >
          <Group gap={6} wrap="nowrap">
            <Avatar size={28} radius="xl" color="sesame" variant="light" aria-hidden="true">
              {initials(user)}
            </Avatar>{' '}
            {/* A phone's navbar has room for the initials only. */}
            <Text span size="xs" fw={600} maw={120} truncate visibleFrom="sm">
              {user.firstname || user.name}
            </Text>{' '}
            <Text span size="xs" c="dimmed" aria-hidden="true" visibleFrom="sm">
              ▾
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={`/${ownSlug}/mon-compte`}>
          {t('nav.account')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={`/${ownSlug}/my-mail-settings`}
          data-testid="mail-settings-link"
        >
          {t('hostLoop:preferences.title')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
