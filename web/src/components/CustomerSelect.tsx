import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { customerDetails, customerDropdown } from '../api/customerAdmin';

export const customerLabel = (c: { company_name?: string | null; first_name?: string; last_name?: string }) =>
  c.company_name?.trim() || `${c.first_name ?? ''} ${c.last_name ?? ''}`.trim();

/**
 * Staff pick a customer by name (company, person or e-mail) in a searchable
 * dropdown (`customer/dropdown/list/?search=`), never by uid; the value is the
 * customer's uid. A uid given in advance (e.g. `?customer=` from a customer's
 * page) is shown by its name.
 */
export default function CustomerSelect({
  value,
  onChange,
  testId = 'customer-select',
}: {
  value?: string;
  onChange?: (uid: string | undefined) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  const search = (q: string) => {
    const n = ++seq.current;
    setLoading(true);
    customerDropdown(q)
      .then((found) => {
        if (n !== seq.current) return;
        setOptions(found.map((o) => ({ value: o.uid, label: o.company_name?.trim() ? `${o.company_name} (${o.label})` : `${o.label} · ${o.email}` })));
      })
      .catch(() => undefined)
      .finally(() => n === seq.current && setLoading(false));
  };

  useEffect(() => {
    search('');
  }, []);

  // A preset uid: show its name.
  useEffect(() => {
    if (!value || options.some((o) => o.value === value)) return;
    let live = true;
    customerDetails(value)
      .then((c) => live && setOptions((old) => (old.some((o) => o.value === value) ? old : [{ value, label: customerLabel(c) }, ...old])))
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  return (
    <Select
      showSearch
      allowClear
      value={value || undefined}
      onChange={(v) => onChange?.(v)}
      filterOption={false}
      onSearch={search}
      loading={loading}
      options={options}
      placeholder={t('customerSelect.placeholder')}
      notFoundContent={t('empty')}
      data-testid={testId}
      style={{ width: '100%' }}
    />
  );
}
