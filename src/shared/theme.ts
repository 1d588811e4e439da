/** The colour theme a visitor chose: 'system' follows the device's light or dark setting. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const THEME_LABELS: Readonly<Record<ThemeChoice, string>> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The cookie that remembers the choice in this browser (read by the server so the first paint is right). */
export const THEME_COOKIE = 'theme';

export function parseThemeChoice(value: string | null | undefined): ThemeChoice {
  return THEME_CHOICES.find((choice) => choice === value) ?? 'system';
}
