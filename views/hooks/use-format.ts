import { useMemo } from 'react';
import { formatDate, formatDateTime, formatMoney } from '@shared/format.js';
import { useSession } from './use-session.js';

export function useFormat() {
  const { locale, timeZone } = useSession();
  return useMemo(
    () => ({
      date: (value: string | null | undefined) => formatDate(value, { locale, timeZone }),
      dateTime: (value: string | null | undefined) => formatDateTime(value, { locale, timeZone }),
      money: (value: string | null | undefined) => formatMoney(value, { locale }),
    }),
    [locale, timeZone],
  );
}
