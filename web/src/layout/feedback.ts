/**
 * The pages' short confirmations and confirm dialogs: antd's message and
 * Modal.confirm, loaded with the first one shown (layout/notifier.tsx: antd's
 * global message and modal, drawn in the app's theme and shown language).
 * antd's App and its hooks were about 19 KiB gzip of every role area's first
 * page; the area fetches the chunk at the user's first click or
 * key, or after a few seconds (`preloadFeedback`, app/RoleArea.tsx), so a
 * confirmation is not later than it was.
 */
import type { ModalFuncProps } from 'antd/es/modal';
import type { ReactNode } from 'react';
import { loadAntdLocale } from '../i18n';

// With antd's locale of the shown language (not in the entry: i18n/index.ts `loadAntdLocale`).
const load = () => Promise.all([import('./notifier'), loadAntdLocale()]).then(([notifier]) => notifier);

/** Fetch the chunk ahead of the first confirmation (app/RoleArea.tsx). */
export function preloadFeedback(): void {
  void load();
}

type Kind = 'success' | 'error' | 'warning' | 'info';
const show = (kind: Kind) => (content: ReactNode) => void load().then(({ message }) => message[kind](content));

/** antd's message: a short notice at the top that closes itself. */
export const message = { success: show('success'), error: show('error'), warning: show('warning'), info: show('info') };

/** antd's Modal.confirm. */
export function confirm(config: ModalFuncProps): void {
  void load().then(({ modal }) => modal.confirm(config));
}

/** As antd's App.useApp() gave them (the pages' former calls keep their shape). */
export function useFeedback() {
  return { message, modal: { confirm } };
}
