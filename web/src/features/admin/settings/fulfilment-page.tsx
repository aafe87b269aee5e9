import { buttonClass } from '../../../components/ui/button';
import { FulfilmentSettingsSchema, type FulfilmentSettings } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/notify';
import { useOnline } from '../../../lib/use-online';
import { usePageTitle } from '../../../lib/use-page-title';
import { fulfilmentQuery, useSaveFulfilment } from '../api/fulfilment-api';
import { CounterAllowance } from './counter-allowance';
import { LocalSection, PickupSection, PostSection, TaxSection } from './settings-sections';
import { dollarProblems, fromDraft, toDraft, type Draft } from './settings-draft';

// Shop settings (issue 27, owner and manager): pickup, local delivery, post with its rate table,
// and tax. Saved whole, with one audit event; the checkout prices with them at once. Places are the
// checkout's codes (issue 36), chosen from its lists.

export function Component() {
  usePageTitle('Shop settings');
  const settings = useQuery(fulfilmentQuery());
  if (!settings.data) return settings.isError ? <p role="alert" className="text-danger">Could not load the settings.</p> : <FullScreenSpinner />;
  return (
    <div className="space-y-6">
      <SettingsForm initial={settings.data} />
      <CounterAllowance />
    </div>
  );
}

function SettingsForm({ initial }: { initial: FulfilmentSettings }) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial));
  const [problems, setProblems] = useState<string[]>([]);
  const save = useSaveFulfilment();
  const online = useOnline();
  const set = <K extends keyof Draft>(key: K, value: Partial<Draft[K]>) => setDraft((d) => ({ ...d, [key]: { ...(d[key] as object), ...value } }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = dollarProblems(draft);
    if (typed.length > 0) {
      setProblems(typed);
      return;
    }
    const parsed = FulfilmentSettingsSchema.safeParse(fromDraft(draft));
    if (!parsed.success) {
      // The schema's messages name the field; a zone's also says which zone.
      setProblems(parsed.error.issues.map((i) => (i.path[1] === 'zones' && typeof i.path[2] === 'number' ? `Zone ${i.path[2] + 1}: ${i.message}` : i.message)));
      return;
    }
    setProblems([]);
    try {
      const saved = await save.mutateAsync(parsed.data as FulfilmentSettings);
      setDraft(toDraft(saved.settings));
      void toast('Settings saved', { timer: 2000 });
    } catch (error) {
      const details = error instanceof ApiError ? Object.entries(error.body?.details ?? {}).map(([k, v]) => `${k}: ${v.join(', ')}`) : [];
      setProblems([error instanceof Error ? error.message : 'Could not save the settings', ...details]);
    }
  };

  return (
    <form onSubmit={submit} className="max-w-3xl space-y-6" aria-labelledby="settings-heading" noValidate>
      <h2 id="settings-heading" className="text-2xl font-semibold">Shop Settings</h2>
      <p className="text-gray-700">How customers get their books, what it costs and the tax on it. Money in dollars.</p>

      <PickupSection draft={draft} set={set} />
      <LocalSection draft={draft} set={set} />
      <PostSection draft={draft} set={set} />
      <TaxSection draft={draft} set={set} setDraft={setDraft} />

      {problems.length > 0 && (
        <div role="alert" className="rounded-md bg-danger-soft p-3 text-danger ring-1 ring-danger">
          <p className="font-semibold">The settings were not saved:</p>
          <ul className="list-disc pl-5">{problems.map((p) => <li key={p}>{p}</li>)}</ul>
        </div>
      )}
      <button type="submit" disabled={save.isPending || !online} className={buttonClass('primary', 'lg')}>
        {save.isPending ? 'Saving...' : 'Save Settings'}
      </button>
    </form>
  );
}
