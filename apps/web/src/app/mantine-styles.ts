/**
 * Mantine's CSS for the components the public pages and the layout use, in the order of
 * Mantine's own styles.css (baseline, variables, global, then components after those they
 * build on: UnstyledButton before Button, Input before PasswordInput...; out of order, a
 * component's own rules lose to its base's). The whole stylesheet (295 KB, every Mantine
 * component) was render-blocking on every page (issue 19).
 *
 * A component only staff screens use brings its CSS where it is used (RowsTable: Table.css,
 * OnSitePage: Tabs.css, ...), so it loads with that screen's chunk. Which components a chunk
 * holds, their bases included, shows in a build with source maps: the sources named
 * `@mantine/core/esm/components/.../X.module.mjs`. A component new to a public page needs its
 * line here, and its bases theirs, at their place in Mantine's order.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/CheckboxCard.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Menu.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Title.css';
// The toasts' container: a toast may show on a public page (a failed submission).
import '@mantine/notifications/styles.css';
